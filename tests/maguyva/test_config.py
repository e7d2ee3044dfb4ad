"""The ``maguyva:`` section of orkestra.yaml: typed model, capped safe reader, errors that say where."""

from __future__ import annotations

import dataclasses

import pytest

from maguyva.config import EmbeddingsConfig, MaguyvaConfig, load_maguyva_config
from maguyva.config_file import declares_section
from maguyva.embed.base import EmbeddingSettings, settings_for
from maguyva.errors import ConfigError, MaguyvaError


def write(tmp_path, text: str):
    (tmp_path / "orkestra.yaml").write_text(text, encoding="utf-8")
    return tmp_path


def test_defaults_without_a_file_or_a_section(tmp_path):
    assert load_maguyva_config(tmp_path) == MaguyvaConfig()
    write(tmp_path, "version: 1\nproject: x\n")
    assert not declares_section(tmp_path)
    assert load_maguyva_config(tmp_path) == MaguyvaConfig()


def test_the_section_is_read_and_typed(tmp_path):
    write(
        tmp_path,
        "version: 1\nmaguyva:\n  store: ../idx.db\n  embeddings:\n    backend: local\n    dims: 384\n",
    )
    config = load_maguyva_config(tmp_path)
    assert config.store == "../idx.db"
    assert config.embeddings == EmbeddingsConfig(backend="local", dims=384)
    settings = settings_for(tmp_path, environ={})
    assert (settings.backend, settings.model, settings.dims) == ("local", "all-MiniLM-L6-v2", 384)


def test_model_validate_accepts_a_mapping_from_elsewhere():
    config = MaguyvaConfig.model_validate({"store": "postgresql://db/m?workspace=w", "embeddings": {}})
    assert config.store.startswith("postgresql://")
    assert config.embeddings.backend == "none"


def test_the_model_knows_every_embedding_setting():
    fields = {f.name for f in dataclasses.fields(EmbeddingSettings)}
    assert set(EmbeddingsConfig.model_fields) == fields


@pytest.mark.parametrize(
    "text, line, field, words",
    [
        (
            "version: 1\nmaguyva:\n  embeddings:\n    backend: voyag\n",
            4,
            "maguyva.embeddings.backend",
            "'voyage'",
        ),
        ("maguyva:\n  store: x\n  stor: y\n", 3, "maguyva.stor", "Extra inputs"),
        ("maguyva:\n  embeddings:\n    dims: -3\n", 3, "maguyva.embeddings.dims", "greater than 0"),
    ],
)
def test_a_bad_value_names_file_line_and_field(tmp_path, text, line, field, words):
    write(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        load_maguyva_config(tmp_path)
    message = str(caught.value)
    assert message.startswith(f"{tmp_path / 'orkestra.yaml'}:{line}: {field}: ")
    assert words in message
    assert isinstance(caught.value, MaguyvaError)
    assert caught.value.exit_code == 1


def test_store_location_reports_a_bad_section_as_a_config_error(git_repo):
    from maguyva.store.location import store_path

    write(git_repo, "maguyva:\n  store: [not, a, path]\n")
    with pytest.raises(ConfigError, match=r"maguyva\.store"):
        store_path(git_repo)
