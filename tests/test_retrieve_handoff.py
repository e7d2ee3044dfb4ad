"""Issue texts: the implementation an issue's named API hands off to, and a hub that defines the generic
names every issue mentions (issue 30). A small repository built here: ``pkg/api.py`` defines
``to_netcdf``, which the issue names and which hands off to ``pkg/backends/writer.py`` (the bug);
``pkg/core/common.py`` defines ``Dataset`` and ``DataArray``, which every module uses."""

from __future__ import annotations

import pytest

from tests.maguyva_project import open_indexed

COMMON = '"""The core data structures every module uses."""\n\n\nclass Variable:\n    """A named array with dimensions and attributes."""\n\n    def __init__(self, dims, data, attrs=None):\n        self.dims = dims\n        self.data = data\n        self.attrs = attrs or {}\n\n\nclass DataArray:\n    """A labelled array: a Variable with coordinates and a name."""\n\n    def __init__(self, variable, coords=None, name=None):\n        self.variable = variable\n        self.coords = coords or {}\n        self.name = name\n\n    @property\n    def attrs(self):\n        return self.variable.attrs\n\n\nclass Dataset:\n    """A dict-like collection of DataArray objects with global attributes."""\n\n    def __init__(self, data_vars=None, attrs=None):\n        self.data_vars = data_vars or {}\n        self.attrs = attrs or {}\n\n\n\ndef get_dims(obj):\n    return obj.dims\n\n\ndef format_attrs(attrs):\n    """The global attributes of a Dataset or a DataArray, each key once, for display before saving."""\n    return "\\n".join(f"{key}: {value}" for key, value in attrs.items())\n\n\ndef copy_attrs(source, target):\n    """Copy every attribute of a Dataset to another Dataset."""\n    target.attrs.update(source.attrs)\n'

OP = 'from pkg.core.common import DataArray, Dataset, Variable, get_dims\n\n\ndef op0(dataset: Dataset) -> Dataset:\n    """Apply operation 0 to every DataArray of the Dataset, keeping attributes."""\n    out = Dataset(attrs=dict(dataset.attrs))\n    for name, array in dataset.data_vars.items():\n        out.data_vars[name] = DataArray(Variable(get_dims(array.variable), array.variable.data), name=name)\n    return out\n'

FILES = {
    "pkg/__init__.py": "",
    "pkg/core/__init__.py": "",
    "pkg/core/common.py": COMMON,
    "pkg/api.py": 'from pkg.backends.writer import dump_dataset, open_writer\n\n\ndef to_netcdf(dataset, path):\n    """Save a Dataset to a netCDF file at ``path``."""\n    writer = open_writer(path)\n    return dump_dataset(dataset, writer)\n',
    "pkg/backends/__init__.py": "",
    "pkg/backends/writer.py": 'class NetCDFWriter:\n    def __init__(self, path):\n        self.path = path\n        self.lines = []\n\n    def put(self, key, value):\n        self.lines.append((key, value))\n\n\ndef open_writer(path):\n    return NetCDFWriter(path)\n\n\ndef dump_dataset(dataset, writer):\n    """Encode every variable, then the global attributes, into the writer."""\n    for name, array in dataset.data_vars.items():\n        writer.put(name, array.variable.data)\n        for key, value in array.attrs.items():\n            writer.put(f"{name}.{key}", value)\n    for key, value in dataset.attrs.items():\n        writer.put(key, value)\n    for key, value in dataset.attrs.items():\n        writer.put(key, value)\n    return writer\n',
    **{f"pkg/ops/op{i}.py": OP.replace("op0", f"op{i}") for i in range(8)},
}

ISSUE = 'to_netcdf writes the global attributes of a Dataset twice\n\nWhen I call `ds.to_netcdf("out.nc")` on a Dataset that has attributes, every global attribute\nappears twice in the file. The Dataset and each DataArray look fine before saving: `ds.attrs` holds\neach key once.\n\n```python\nds = Dataset(attrs={"title": "x"})\nds.to_netcdf("out.nc")\n```\n\nI expected each attribute once.\n'


@pytest.fixture(scope="module")
def answer(tmp_path_factory):
    api = open_indexed(tmp_path_factory.mktemp("handoff") / "repo", FILES)
    yield api.intelligent_search(ISSUE)
    api.close()


def signals(answer) -> dict[str, dict]:
    return {r["path"]: r["signals"] for r in answer["results"]}


def test_the_file_the_named_api_hands_off_to_carries_the_handoff_signal(answer):
    found = signals(answer)
    assert found["pkg/backends/writer.py"]["handoff"] == 1.0  # to_netcdf calls dump_dataset
    assert "handoff" not in found.get("pkg/core/common.py", {})
    assert "pkg/backends/writer.py" in [r["path"] for r in answer["results"][:3]]


def test_a_name_every_module_uses_says_less_than_the_api_the_issue_is_about(answer):
    # ``Dataset`` is defined once but used by every module: the hub defining it weighs less than the
    # file defining ``to_netcdf``, which one module uses
    found = signals(answer)
    assert found["pkg/api.py"]["defines"] > found["pkg/core/common.py"]["defines"]
