"""Nightly shipment sync: records, a CSV exporter for the carrier, an importer, a lateness report."""
from shipping.records import Shipment, sample_shipments
from shipping.export import write_manifest
from shipping.importer import read_manifest
from shipping.report import lateness_report

__all__ = ["Shipment", "sample_shipments", "write_manifest", "read_manifest", "lateness_report"]
