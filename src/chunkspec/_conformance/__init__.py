"""The conformance kit: vectors, the JSON Lines port protocol and the differential runner.

``chunkspec vectors DIR`` writes the vectors; ``chunkspec conformance -- COMMAND...`` checks
a port (docs/conformance.md). The CONF rules and the hazards (HAZ rules, each with its
hand-written vectors in data/hazards.json) are in docs/spec/conformance.md. The runner
(``_runner``) needs Hypothesis, the ``conformance`` extra; the vectors need nothing, so this
package imports only them.
"""

from ._vectors import export, load_vectors

__all__ = ["export", "load_vectors"]
