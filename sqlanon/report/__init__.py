"""Run reports: the report dict written as JSON or rendered as one self-contained HTML page."""

from .html import render_html, write_report

__all__ = ["render_html", "write_report"]
