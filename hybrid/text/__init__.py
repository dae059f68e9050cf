"""Text passes: the pass contract (hybrid.text.passes), the ordered registry (hybrid.text.pipeline.PIPELINE) and the
contexts a pass reads (hybrid.text.context)."""
