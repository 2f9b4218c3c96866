"""Golden cases of pack_records (tests/golden/pack_records.json, CTX rules)."""

from __future__ import annotations

from typing import Any

import pytest

from chunkspec import pack_records
from tests import goldens
from tests.pack_records import pack_call


@pytest.mark.parametrize("case", goldens.cases("pack_records"))
def test_pack_records(case: dict[str, Any]) -> None:
    def call() -> dict[str, Any]:
        records, scores, budget, options = pack_call(case["input"])
        return pack_records(records, scores, budget, **options).to_dict()

    if "error" in case:
        kind = TypeError if case["error"]["type"] == "TypeError" else ValueError
        with pytest.raises(kind) as caught:
            call()
        assert getattr(caught.value, "argument", None) == case["error"]["argument"]
    else:
        assert call() == case["output"]
