"""The corpus engine: chunk a corpus of files into an output folder (docs/scale.md).

Holds :func:`chunkspec.ingest` (``_engine``) and what it runs: the walk of the inputs
(``_walk``), the local engine and its worker pool (``_local_engine``, ``_worker_pool``), the
Ray engine (``_ray_engine``, ``_process_family``), incremental reuse and the change set
(``_incremental``, ``_reuse_checks``), the output folder, its staging and manifest
(``_out_folder``), reading a result back (``_part_files``), the ``--metadata`` sidecar
(``_sidecar_file``), the critical sections a signal handler honours (``_critical``) and
one-line errors (``_file_io``). It prints nothing and installs no signal handler: the
command line (``chunkspec._cli``) does both.

May import ``chunkspec.ray`` and ``chunkspec.arrow`` (lazily: pyarrow and Ray only when a run
needs them) and every layer below them; never ``chunkspec._cli`` nor the façade.
"""
