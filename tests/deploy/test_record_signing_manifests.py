"""k8s/: the API pods take the record signing key from an optional Secret, never from the
ConfigMap, and the workers (which sign nothing) do not get it (docs/security.md, "Record
signing keys")."""

from __future__ import annotations

import pytest

from tests.deploy import test_manifests as manifests

SECRET = "rules-record-signing"


@pytest.mark.parametrize("name", manifests.OVERLAYS)
def test_the_record_signing_keys_come_from_an_optional_secret(name: str) -> None:
    docs = manifests.overlay(name)
    env = {e["name"]: e for e in manifests.app_container(docs)["env"]}
    for setting, key in (
        ("RULES_RECORD_SIGNING_KEY", "signing-key"),
        ("RULES_RECORD_VERIFY_KEYS", "verify-keys"),
    ):
        assert setting in manifests.settings_names()
        assert env[setting]["valueFrom"]["secretKeyRef"] == {
            "name": SECRET,
            "key": key,
            "optional": True,
        }
        assert not [cm for cm in manifests.of_kind(docs, "ConfigMap") if setting in cm["data"]]
    (worker,) = manifests.pod_spec(manifests.one(docs, "Deployment", "rules-worker"))["containers"]
    assert "RULES_RECORD_SIGNING_KEY" not in {e["name"] for e in worker["env"]}
    assert not [s for s in manifests.of_kind(docs, "Secret") if s["metadata"]["name"] == SECRET]
