"""How long an importer gives one PDF before stopping its worker; read without loading pypdf."""

PDF_TIME_LIMIT = 120.0  # seconds of wall-clock time per PDF (`--time-limit`)
