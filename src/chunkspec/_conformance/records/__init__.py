"""The record op family of the kit: ``chunk`` (character windows, WIN rules), the chunk
record as a wire object, and ``validate_record``'s schema cases (CONF-3, CONF-17).

The family the others build on: ``windows`` and ``packing`` import its record object. It may
import the library's layers below the kit and the kit's wire floor; never the framework
nor another family (the schema cases get the oracle's sample records as arguments). Nothing
is imported here.
"""
