"""The drafting workbench in the browser (`hybrid serve`): FastAPI routes over the Drafter; above draft, below cli."""
