"""The conformance kit: vectors, the JSON Lines port protocol and the differential runner.

``chunkspec vectors DIR`` writes the vectors; ``chunkspec conformance -- COMMAND...`` checks
a port (docs/conformance.md). The CONF rules and the hazards (HAZ rules, each with its
hand-written vectors in data/hazards.json) are in docs/spec/conformance.md.

A small framework over op families, on three floors; a module imports only its own floor and
those below it, and no two modules import each other, even through others (the acyclic
contract, pyproject.toml):

- **The wire** (bottom): the wire form and how a Python function answers in it (``_wire``),
  judging an answer (``_compare``), JavaScript's whitespace (``_js_space``), the pools the
  generated cases draw from (``_pools``) and drawing them outside Hypothesis's engine
  (``_draw``).
- **The op families**, one subpackage each, holding each op's function, vectors, generator
  and blame: ``records`` (the ``chunk`` op, the record object, the schema's cases),
  ``windows`` and ``packing`` (which build on the record object), ``markdown`` and
  ``documents`` (the ``chunk_document`` op: raw files under every strategy). A family
  imports the wire and ``records``, never the framework above it nor another family.
- **The framework** (top): the oracle that knows every op (``_oracle``), the vectors
  (``_vectors``), the generated cases (``_generate``), the rule checks and blame (``_rules``,
  ``_blame``), the port process and its protocol (``_port``), the case producers
  (``_produce``), the runner (``_runner``) and its reports (``_report``). The command line
  (``_cli._conformance_command``, ``_cli._vectors_command``) imports only this floor.

The kit imports the library's layers below it (``_packing``, ``_records``, ``_chunkers``,
``_text``, ``_counters``, ``_core``, ``_errors``, ``_version``), never the public modules.
What only tests read (the input classes of CONF-13, the uncaught mistakes of CONF-14) lives
in tests/conformance, outside the wheel. The runner needs Hypothesis, the ``conformance``
extra; the vectors need nothing, so this package imports only them.
"""

from ._vectors import export, load_vectors

__all__ = ["export", "load_vectors"]
