"""The chunk-record op ``chunk`` (character windows, WIN rules) of the kit (CONF-3).

Nothing is imported here.
"""
