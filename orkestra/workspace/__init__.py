"""Loading a workspace: config + registries → typed models, with located diagnostics."""

TYPE_CHECKING = False  # not typing's: importing this package stays free for the stat-only no-op sync
if TYPE_CHECKING:
    from orkestra.workspace.load import Workspace

__all__ = ["Workspace"]


def __getattr__(name: str):
    # Lazy, so that importing a light submodule (orkestra.inspect.cache) does not load pydantic.
    if name == "Workspace":
        from orkestra.workspace.load import Workspace

        return Workspace
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
