"""Evidence extraction and entity grounding (docs/extraction.md).

Entry points: `extractor.default_extractor` / `extractor.Extractor` (abstract + query ->
evidence rows; `settings.ExtractorSettings` tunes the rule extractor),
`resolve.EntityResolver` (names -> stable ids), `mesh.MeshIndex` (MeSH
grounding), `llm.LLMExtractor` (optional), and the commands in `cli.app`.
"""
