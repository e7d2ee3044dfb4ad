"""Loading a workspace: config + registries → typed models, with located diagnostics."""

from orkestra.workspace.load import Workspace

__all__ = ["Workspace"]
