"""Celery wiring: the app, thin task wrappers, and the embedded worker and scheduler."""
