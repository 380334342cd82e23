"""An example package of third-party torch-refine passes."""
