"""Entity resolution: surface forms to stable node ids (SPEC §2).

A name that grounds to MeSH gets the descriptor UI as its id (so 'heart attack' and
'myocardial infarction' meet in one node); otherwise the id is the normalised surface form
(model.normalise_name). Case folding and abbreviation expansion ('LMWH' ->
'low-molecular-weight heparin', when the caller or the abstract says so) happen before
grounding.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from pipeline.extraction.mesh import Grounding, MeshIndex
from pipeline.model import Entity, Query, check_name, normalise_name


class EntityResolver:
    """Resolves names to Entities, remembering each answer (the agent asks repeatedly)."""

    def __init__(self, mesh: MeshIndex | None = None,
                 abbreviations: Mapping[str, str] | None = None) -> None:
        self.mesh = mesh
        self.abbreviations = {k: v for k, v in (abbreviations or {}).items()}
        self._cache: dict[tuple[str, tuple[str, ...]], Entity] = {}
        self._groundings: dict[str, Grounding | None] = {}

    def grounding(self, name: str) -> Grounding | None:
        """The MeSH grounding of a name (its expansion first when it is a known
        abbreviation), or None."""
        if self.mesh is None:
            return None
        key = name.strip()
        if key not in self._groundings:
            expanded = self.abbreviations.get(key)
            self._groundings[key] = ((self.mesh.ground(expanded) if expanded else None)
                                     or self.mesh.ground(key))
        return self._groundings[key]

    def resolve(self, name: str, role: str = "entity", aliases: tuple[str, ...] = ()
                ) -> Entity:
        """An Entity with a stable id: the descriptor UI when the name (or else one of its
        aliases) grounds, else the normalised name. Raises InvalidEvidence for an
        unusable name."""
        clean = check_name(name, role)
        key = (clean, aliases)
        if key not in self._cache:
            found = next((g for text in (clean, *aliases) if (g := self.grounding(text))),
                         None)
            if found is not None:
                entity = Entity(found.ui, clean, grounded=True, aliases=aliases)
            else:
                entity = Entity(normalise_name(clean), clean, aliases=aliases)
            self._cache[key] = entity
        return self._cache[key]

    def resolve_query(self, query: Query) -> Query:
        """The query with its entities grounded: call once before retrieval so that the
        extractor's rows and the graph's nodes share ids."""
        def again(entity: Entity, role: str) -> Entity:
            if entity.grounded:
                return entity
            return self.resolve(entity.name, role, entity.aliases)
        comparator = again(query.comparator, "comparator") if query.comparator else None
        return Query(again(query.intervention, "intervention"), again(query.outcome, "outcome"),
                     comparator, query.direction, dict(query.constraints))

    def aliases(self, entity: Entity) -> Iterable[str]:
        """Surface forms the resolver knows beyond the entity's own aliases: its MeSH
        entry terms when grounded, and the expansion of a known abbreviation."""
        out: list[str] = []
        expanded = self.abbreviations.get(entity.name)
        if expanded:
            out.append(expanded)
        if self.mesh is not None and entity.grounded:
            descriptor = self.mesh.descriptor(entity.id)
            if descriptor is not None:
                out += [t for t in descriptor.terms if len(t) <= 60 and "," not in t]
        return out
