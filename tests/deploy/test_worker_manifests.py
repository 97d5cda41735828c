"""k8s/: the bot workers' Deployment, autoscaler, disruption budget, metrics and network, as
rendered for each overlay (the schema and security checks of test_manifests.py cover them too)."""

from __future__ import annotations

import ipaddress

import pytest
import yaml

from tests.deploy.test_manifests import (
    K8S,
    OVERLAYS,
    Object,
    allowed_ports,
    app_container,
    container_settings,
    exported_series,
    one,
    overlay,
    pod_spec,
    selects,
    series_in,
    settings_names,
)

WORKER = "rules-worker"


def worker_container(docs: tuple[Object, ...]) -> Object:
    (container,) = pod_spec(one(docs, "Deployment", WORKER))["containers"]
    return container


@pytest.mark.parametrize("name", OVERLAYS)
def test_workers_run_the_api_image_one_process_per_pod_on_the_same_redis(name: str) -> None:
    docs = overlay(name)
    worker, api = worker_container(docs), app_container(docs)
    assert worker["command"] == ["python", "-m", "service.worker"]
    assert worker["image"] == api["image"]
    assert worker["envFrom"] == api["envFrom"]
    env = {e["name"]: e for e in worker["env"]}
    assert env["REDIS_URL"] == next(e for e in api["env"] if e["name"] == "REDIS_URL")
    # the tenants' bot job streams and webhook outboxes are found by the tenants' names
    assert env["RULES_API_KEYS"] == next(e for e in api["env"] if e["name"] == "RULES_API_KEYS")
    assert env["RULES_WORKER_PROCESSES"]["value"] == "1"
    assert {name for name in env} <= settings_names()
    assert worker["resources"]["requests"]["cpu"] == worker["resources"]["limits"]["cpu"] == "1"
    assert "replicas" not in one(docs, "Deployment", WORKER)["spec"]


@pytest.mark.parametrize("name", OVERLAYS)
def test_worker_probes_and_monitor_reach_its_metrics_port(name: str) -> None:
    docs = overlay(name)
    container = worker_container(docs)
    env = {e["name"]: e.get("value") for e in container["env"]}
    (port,) = container["ports"]
    assert port["containerPort"] == int(env["RULES_WORKER_METRICS_PORT"])
    for probe in ("startupProbe", "readinessProbe"):
        assert container[probe]["httpGet"] == {"path": "/metrics", "port": port["name"]}
    # a worker whose loops stopped turning fails it (service/worker/heartbeat.py)
    assert container["livenessProbe"]["httpGet"] == {"path": "/healthz", "port": port["name"]}
    labels = one(docs, "Deployment", WORKER)["spec"]["template"]["metadata"]["labels"]
    service = one(docs, "Service", WORKER)
    assert selects(service["spec"]["selector"], labels)
    monitor = one(docs, "ServiceMonitor", WORKER)
    assert selects(monitor["spec"]["selector"]["matchLabels"], service["metadata"]["labels"])
    assert [e["port"] for e in monitor["spec"]["endpoints"]] == [port["name"]]


def external_rules() -> dict[str, Object]:
    values = yaml.safe_load((K8S / "monitoring" / "prometheus-adapter-values.yaml").read_text())
    return {rule["name"]["as"]: rule for rule in values["rules"]["external"]}


@pytest.mark.parametrize("name", OVERLAYS)
def test_worker_autoscaler_follows_the_backlogs_the_adapter_serves(name: str) -> None:
    docs = overlay(name)
    hpa = one(docs, "HorizontalPodAutoscaler", WORKER)
    assert hpa["spec"]["scaleTargetRef"]["name"] == WORKER
    assert 1 <= hpa["spec"]["minReplicas"] < hpa["spec"]["maxReplicas"]
    wanted = {m["external"]["metric"]["name"] for m in hpa["spec"]["metrics"]}
    assert wanted == {
        "rules_bot_jobs_pending",
        "rules_bot_oldest_job_seconds",
        "rules_webhook_overdue_seconds",
    }
    rules = external_rules()
    for metric in wanted:
        rule = rules[metric]
        assert series_in(rule["seriesQuery"]) == {metric} and metric in exported_series()
        query = rule["metricsQuery"].replace("<<.Series>>", metric)
        query = query.replace("<<.LabelMatchers>>", 'namespace="tree-games"')
        assert series_in(query.replace("<<.GroupBy>>", "namespace")) == {metric}


@pytest.mark.parametrize("name", OVERLAYS)
def test_worker_disruption_budget_and_network_policy(name: str) -> None:
    docs = overlay(name)
    labels = one(docs, "Deployment", WORKER)["spec"]["template"]["metadata"]["labels"]
    pdb = one(docs, "PodDisruptionBudget", WORKER)
    assert selects(pdb["spec"]["selector"]["matchLabels"], labels)
    least = one(docs, "HorizontalPodAutoscaler", WORKER)["spec"]["minReplicas"]
    assert pdb["spec"]["maxUnavailable"] == 1 <= least
    policy = one(docs, "NetworkPolicy", WORKER)
    assert selects(policy["spec"]["podSelector"]["matchLabels"], labels)
    assert allowed_ports(policy["spec"]["ingress"]) == {("TCP", "metrics")}
    api_policy = one(docs, "NetworkPolicy")
    assert allowed_ports(policy["spec"]["egress"]) == allowed_ports(api_policy["spec"]["egress"])
    # webhooks: every port, but of public addresses only (service/webhooks/urls.py)
    (webhooks,) = [rule for rule in policy["spec"]["egress"] if "to" in rule]
    assert "ports" not in webhooks
    blocks = {block["ipBlock"]["cidr"]: block["ipBlock"]["except"] for block in webhooks["to"]}
    assert set(blocks) == {"0.0.0.0/0", "::/0"}
    for cidr, refused in blocks.items():
        for address in ("10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "127.0.0.1",
                        "100.64.0.1", "::1", "fd00::1", "fe80::1"):  # fmt: skip
            ip = ipaddress.ip_address(address)
            if ip.version == ipaddress.ip_network(cidr).version:
                assert any(ip in ipaddress.ip_network(block) for block in refused), address


@pytest.mark.parametrize("name", OVERLAYS)
def test_worker_termination_grace_outlasts_its_drain(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SIGTERM drains a worker: the job in hand within RULES_WORKER_DRAIN_SECONDS, then its
    other loops (at most three Redis timeouts and one webhook attempt,
    Worker.run in service/worker/worker.py); all of it before the kubelet's SIGKILL."""
    docs = overlay(name)
    settings = container_settings(docs, worker_container(docs), monkeypatch)
    stop = (
        settings.worker_drain_seconds
        + 3 * settings.redis_timeout
        + settings.webhook_timeout_seconds
    )
    grace = pod_spec(one(docs, "Deployment", WORKER))["terminationGracePeriodSeconds"]
    assert settings.worker_drain_seconds > 1, "a decision (about 100 ms) fits in the drain"
    assert grace >= stop + 5, (grace, stop)
