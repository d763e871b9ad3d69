"""The paper's figures as PNG (matplotlib, Agg): drift vs budget k with the DACG point,
NoEffect accuracy vs mean steps, and the per-class mean q(Beneficial) over steps."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)

from pipeline.evaluation.metrics import PolicyMetrics  # noqa: E402

_ADAPTIVE = ("DACG", "KL-only")


def _save(fig: plt.Figure, out: Path) -> None:
    """No software/version metadata in the PNG: same numbers, same bytes."""
    fig.tight_layout()
    fig.savefig(out, dpi=120, metadata={"Software": None})
    plt.close(fig)
def drift_vs_budget(metrics: Mapping[str, PolicyMetrics], budgets: Sequence[int],
                    out: Path) -> None:
    fig, ax = plt.subplots(figsize=(5, 3.6))
    ks = [k for k in budgets if f"k={k}" in metrics]
    ax.plot(ks, [100 * metrics[f"k={k}"].drift_rate for k in ks], "o-", color="0.4",
            label="fixed budget k")
    for name, marker in zip(_ADAPTIVE, ("*", "D"), strict=True):
        if name in metrics:
            m = metrics[name]
            ax.plot([m.mean_steps], [100 * m.drift_rate], marker, markersize=11 if marker == "*"
                    else 7, label=f"{name} (at its mean steps)")
    ax.set_xlabel("retrieval steps k (adaptive: mean steps)")
    ax.set_ylabel("drift rate (%)")
    ax.set_xticks(ks)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    _save(fig, out)


def noeffect_vs_steps(metrics: Mapping[str, PolicyMetrics], out: Path) -> None:
    fig, ax = plt.subplots(figsize=(7, 3.8))
    fixed = [m for name, m in metrics.items() if name.startswith("k=")]
    ax.plot([m.mean_steps for m in fixed], [100 * m.per_class["NoEffect"] for m in fixed],
            "-", color="0.8", zorder=0)
    for name, m in metrics.items():
        if "NoEffect" not in m.per_class or name == "Trim-and-fill":
            continue
        style = "*" if name in _ADAPTIVE else ("s" if name.startswith("k=") else "o")
        ax.plot([m.mean_steps], [100 * m.per_class["NoEffect"]], style, label=name,
                markersize=12 if style == "*" else 6, alpha=0.85)
    ax.set_xlabel("mean retrieval steps")
    ax.set_ylabel("NoEffect accuracy (%)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
    _save(fig, out)


def posterior_curves(curves: Mapping[str, Sequence[float]], label: str, out: Path) -> None:
    fig, ax = plt.subplots(figsize=(5, 3.6))
    for cls, values in curves.items():
        ax.plot(range(1, len(values) + 1), values, "o-", markersize=3,
                label=f"true {cls}")
    ax.set_xlabel("step t")
    ax.set_ylabel(f"mean q_t({label})")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    _save(fig, out)


def recall_bars(recalls: Mapping[str, Mapping[str, float]], answers: Sequence[str],
                out: Path, anchor: tuple[str, str, float] | None = None) -> None:
    """Per-answer recall of several methods; `anchor` = (answer, caption, value) draws
    a published reference for one answer."""
    fig, ax = plt.subplots(figsize=(7, 3.6))
    width = 0.8 / max(len(recalls), 1)
    for i, (name, recall) in enumerate(recalls.items()):
        ax.bar([j + i * width for j in range(len(answers))], [recall[a] for a in answers],
               width, label=name)
    if anchor is not None:
        j = list(answers).index(anchor[0])
        ax.hlines(anchor[2], j - 0.1, j + 0.9, colors="k", linestyles="--", label=anchor[1])
    ax.set_xticks([j + 0.4 - width / 2 for j in range(len(answers))],
                  [a.replace(" ", "\n") for a in answers], fontsize=8)
    ax.set_ylabel("recall (held-out half)")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3, axis="y")
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
    _save(fig, out)


def reliability_diagram(confidence: Sequence[float], accuracy: Sequence[float],
                        count: Sequence[int], ece: float, out: Path) -> None:
    """Accuracy against confidence per bin (marker area ~ steps), with the diagonal."""
    fig, ax = plt.subplots(figsize=(4.6, 4.2))
    ax.plot([0, 1], [0, 1], "--", color="0.6", label="perfect calibration")
    total = max(sum(count), 1)
    ax.plot(confidence, accuracy, "-", color="C0")
    ax.scatter(confidence, accuracy, s=[20 + 400 * c / total for c in count], color="C0",
               zorder=3, label=f"posterior (ECE {ece:.3f})")
    ax.set_xlabel("confidence: top posterior probability")
    ax.set_ylabel("accuracy of the argmax label")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="upper left")
    _save(fig, out)
