"""Ray for training: one connection per process, to a local Ray or to a cluster by address.

Why Ray: the tournaments already scale past one machine with it (``atout
tournament --ray``), so a researcher with a cluster uses the same address for
training: the self-play actors and the evaluation's rotations run there, the
learner stays in the calling process.  Ray is the optional ``ray`` extra.
"""

from __future__ import annotations

__all__ = ["connect"]


def connect(address: str) -> None:
    """Start a local Ray (``"local"``) or join the cluster at ``address``, once per process."""
    try:
        import ray
    except ImportError as exc:  # pragma: no cover - ray is in the dev extra
        raise RuntimeError("training on Ray needs ray: pip install 'atout[ray]'") from exc
    if not ray.is_initialized():
        ray.init(
            address=None if address == "local" else address,
            include_dashboard=False,
            log_to_driver=False,
            # Workers find atout through the driver's path (an editable install needs nothing more).
        )
