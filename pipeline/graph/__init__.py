"""The evidence graph: one `GraphStore` interface, an embedded store and a Neo4j store."""
