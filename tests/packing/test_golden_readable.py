"""Golden cases of the access check (tests/golden/readable.json, CTX-13)."""

from __future__ import annotations

from typing import Any

import pytest

from chunkspec._packing._access import readable
from chunkspec.records import Principal
from tests import goldens


@pytest.mark.parametrize("case", goldens.cases("readable"))
def test_readable(case: dict[str, Any]) -> None:
    given = case["input"]["principal"]
    principal = None if given is None else Principal(given["labels"], given["tenant"])
    if "error" in case:
        kind = TypeError if case["error"]["type"] == "TypeError" else ValueError
        with pytest.raises(kind) as caught:
            readable("metadata", case["input"]["metadata"], principal)
        assert getattr(caught.value, "argument", None) == case["error"]["argument"]
    else:
        assert readable("metadata", case["input"]["metadata"], principal) is case["output"]
