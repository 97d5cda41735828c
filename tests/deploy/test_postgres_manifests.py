"""k8s/: PostgreSQL, the archive of finished games. The base reads DATABASE_URL from the Secret
`rules-postgres`; the CloudNativePG component (both overlays) runs a Cluster and points the API
and the workers at the Secret the operator makes for it; what may reach it."""

from __future__ import annotations

import re

import pytest

from tests.deploy.test_manifests import (
    OVERLAYS,
    Object,
    allowed_ports,
    one,
    overlay,
    pod_spec,
    render,
    selects,
)

CLUSTER = "rules-postgres"
WORKLOADS = ("rules-service", "rules-worker")


def database_url_ref(docs: tuple[Object, ...], deployment: str) -> Object:
    (container,) = pod_spec(one(docs, "Deployment", deployment))["containers"]
    (env,) = [e for e in container["env"] if e["name"] == "DATABASE_URL"]
    ref: Object = env["valueFrom"]["secretKeyRef"]
    return ref


@pytest.mark.parametrize("deployment", WORKLOADS)
def test_the_base_reads_database_url_from_the_secret_rules_postgres(deployment: str) -> None:
    assert database_url_ref(render("base"), deployment) == {"name": "rules-postgres", "key": "url"}


@pytest.mark.parametrize("name", OVERLAYS)
def test_api_and_workers_read_the_uri_cloudnative_pg_makes_for_the_cluster(name: str) -> None:
    docs = overlay(name)
    cluster = one(docs, "Cluster", CLUSTER)
    # the operator's Secret for the database owner: `<cluster>-app`, its libpq URI at `uri`
    for deployment in WORKLOADS:
        assert database_url_ref(docs, deployment) == {"name": f"{CLUSTER}-app", "key": "uri"}
    initdb = cluster["spec"]["bootstrap"]["initdb"]
    assert initdb["database"] == initdb["owner"] == "rules"
    assert (initdb["encoding"], initdb["localeCollate"], initdb["localeCType"]) == (
        "UTF8",
        "C",
        "C",
    )
    assert cluster["spec"]["enableSuperuserAccess"] is False
    tag = cluster["spec"]["imageName"].rpartition(":")[2]
    assert re.fullmatch(r"\d+\.\d+(-[\w.-]+)?", tag), f"{tag}: not pinned to a minor release"


def test_prod_keeps_an_acknowledged_archive_write_through_a_failover() -> None:
    """A worker drops a game from Redis once the archive acknowledged it: a standby must have
    confirmed the commit, and one instance down must not stop archiving."""
    spec = one(overlay("prod"), "Cluster", CLUSTER)["spec"]
    synchronous = spec["postgresql"]["synchronous"]
    assert spec["instances"] >= 3
    assert synchronous["dataDurability"] == "required"
    assert 1 <= synchronous["number"] <= spec["instances"] - 2
    # spread over nodes where there are enough of them, never left pending where there are not
    affinity = spec["affinity"]
    assert affinity["enablePodAntiAffinity"] is True
    assert (affinity["topologyKey"], affinity["podAntiAffinityType"]) == (
        "kubernetes.io/hostname",
        "preferred",
    )


def test_dev_runs_one_instance_that_waits_for_no_standby() -> None:
    spec = one(overlay("dev"), "Cluster", CLUSTER)["spec"]
    assert spec["instances"] == 1
    assert "synchronous" not in spec["postgresql"]


@pytest.mark.parametrize("name", OVERLAYS)
def test_postgres_admits_the_api_the_workers_its_instances_and_the_operator(name: str) -> None:
    docs = overlay(name)
    policy = one(docs, "NetworkPolicy", CLUSTER)
    assert policy["spec"]["podSelector"]["matchLabels"] == {"cnpg.io/cluster": CLUSTER}
    clients, operator, metrics = policy["spec"]["ingress"]
    for deployment in WORKLOADS:
        labels = one(docs, "Deployment", deployment)["spec"]["template"]["metadata"]["labels"]
        assert any(selects(p["podSelector"]["matchLabels"], labels) for p in clients["from"])
    assert {"podSelector": {"matchLabels": {"cnpg.io/cluster": CLUSTER}}} in clients["from"]
    assert allowed_ports([clients]) == {("TCP", 5432)}
    (peer,) = operator["from"]
    assert peer["namespaceSelector"]["matchLabels"] == {
        "kubernetes.io/metadata.name": "cnpg-system"
    }
    assert allowed_ports([operator]) == {("TCP", 5432), ("TCP", 8000)}
    assert "from" not in metrics and allowed_ports([metrics]) == {("TCP", 9187)}
