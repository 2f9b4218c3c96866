"""The window, page and sentence ops of the kit (CONF-3; TOKWIN, PAGE and SENT rules).

Ops, vectors, generators and blame of the family; nothing is imported here.
"""
