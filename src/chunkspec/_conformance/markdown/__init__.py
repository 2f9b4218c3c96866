"""The Markdown ops of the kit: split_markdown and heading_aware (CONF-3, MD and HEAD rules).

Ops, vectors, generators and blame of the family; nothing is imported here.
"""
