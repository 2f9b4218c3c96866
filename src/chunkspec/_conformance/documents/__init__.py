"""The ``chunk_document`` op: a raw file's records under every strategy (NPM-1, NPM-5).

``_documents_ops`` answers it, ``_documents_generate`` draws its cases, ``_documents_blame``
blames a wrong answer.
"""
