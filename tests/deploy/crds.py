"""JSON Schemas for the Prometheus Operator objects in k8s/ (monitoring.coreos.com/v1) and the
CloudNativePG Cluster (postgresql.cnpg.io/v1).

kubernetes-validate knows the built-in kinds only. These schemas are the part of the upstream
ServiceMonitor, PrometheusRule and Cluster CRDs that this project uses, with the upstream field
names, types, enums and duration pattern, written here and closed (`additionalProperties:
false`) so a misspelt field fails. Using a field not listed here fails too: add it, as upstream
types it.
"""

from __future__ import annotations

from typing import Any

Schema = dict[str, Any]

DURATION: Schema = {
    "type": "string",
    "pattern": r"^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?"
    r"(([0-9]+)ms)?)$",
}
STRING_MAP: Schema = {"type": "object", "additionalProperties": {"type": "string"}}
INT_OR_STRING: Schema = {"anyOf": [{"type": "integer"}, {"type": "string"}]}


def closed(properties: dict[str, Schema], required: tuple[str, ...] = ()) -> Schema:
    return {
        "type": "object",
        "properties": properties,
        "required": list(required),
        "additionalProperties": False,
    }


LABEL_SELECTOR = closed(
    {
        "matchLabels": STRING_MAP,
        "matchExpressions": {
            "type": "array",
            "items": closed(
                {
                    "key": {"type": "string"},
                    "operator": {"enum": ["In", "NotIn", "Exists", "DoesNotExist"]},
                    "values": {"type": "array", "items": {"type": "string"}},
                },
                ("key", "operator"),
            ),
        },
    }
)

METADATA = closed(
    {
        "name": {"type": "string", "pattern": r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"},
        "namespace": {"type": "string"},
        "labels": STRING_MAP,
        "annotations": STRING_MAP,
    },
    ("name",),
)

ENDPOINT = closed(
    {
        "port": {"type": "string"},
        "targetPort": INT_OR_STRING,
        "path": {"type": "string"},
        "scheme": {"enum": ["http", "https", "HTTP", "HTTPS"]},
        "interval": DURATION,
        "scrapeTimeout": DURATION,
        "honorLabels": {"type": "boolean"},
        "honorTimestamps": {"type": "boolean"},
    }
)

SERVICE_MONITOR = closed(
    {
        "apiVersion": {"const": "monitoring.coreos.com/v1"},
        "kind": {"const": "ServiceMonitor"},
        "metadata": METADATA,
        "spec": closed(
            {
                "selector": LABEL_SELECTOR,
                "namespaceSelector": closed(
                    {"any": {"type": "boolean"}, "matchNames": {"type": "array"}}
                ),
                "endpoints": {"type": "array", "items": ENDPOINT},
                "jobLabel": {"type": "string"},
                "targetLabels": {"type": "array", "items": {"type": "string"}},
                "podTargetLabels": {"type": "array", "items": {"type": "string"}},
                "sampleLimit": {"type": "integer", "minimum": 0},
            },
            ("selector",),
        ),
    },
    ("apiVersion", "kind", "metadata", "spec"),
)

RULE = closed(
    {
        "alert": {"type": "string"},
        "record": {"type": "string"},
        "expr": INT_OR_STRING,
        "for": DURATION,
        "keep_firing_for": DURATION,
        "labels": STRING_MAP,
        "annotations": STRING_MAP,
    },
    ("expr",),
)

PROMETHEUS_RULE = closed(
    {
        "apiVersion": {"const": "monitoring.coreos.com/v1"},
        "kind": {"const": "PrometheusRule"},
        "metadata": METADATA,
        "spec": closed(
            {
                "groups": {
                    "type": "array",
                    "items": closed(
                        {
                            "name": {"type": "string", "minLength": 1},
                            "interval": DURATION,
                            "limit": {"type": "integer"},
                            "rules": {"type": "array", "items": RULE},
                        },
                        ("name",),
                    ),
                }
            }
        ),
    },
    ("apiVersion", "kind", "metadata", "spec"),
)

# A Kubernetes quantity (upstream: int-or-string with this pattern).
QUANTITY: Schema = {
    "anyOf": [{"type": "integer"}, {"type": "string"}],
    "pattern": r"^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|"
    r"([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$",
}
RESOURCES = closed(
    {
        "requests": {"type": "object", "additionalProperties": QUANTITY},
        "limits": {"type": "object", "additionalProperties": QUANTITY},
    }
)

CNPG_CLUSTER = closed(
    {
        "apiVersion": {"const": "postgresql.cnpg.io/v1"},
        "kind": {"const": "Cluster"},
        "metadata": METADATA,
        "spec": closed(
            {
                "description": {"type": "string"},
                "instances": {"type": "integer", "minimum": 1},
                "imageName": {"type": "string"},
                "primaryUpdateStrategy": {"enum": ["unsupervised", "supervised"]},
                "primaryUpdateMethod": {"enum": ["switchover", "restart"]},
                "enableSuperuserAccess": {"type": "boolean"},
                "bootstrap": closed(
                    {
                        "initdb": closed(
                            {
                                "database": {"type": "string"},
                                "owner": {"type": "string"},
                                "encoding": {"type": "string"},
                                "localeCollate": {"type": "string"},
                                "localeCType": {"type": "string"},
                            }
                        )
                    }
                ),
                "postgresql": closed(
                    {
                        "parameters": STRING_MAP,
                        "synchronous": closed(
                            {
                                "method": {"enum": ["any", "first"]},
                                "number": {"type": "integer"},
                                "dataDurability": {"enum": ["required", "preferred"]},
                            },
                            ("method", "number"),
                        ),
                    }
                ),
                "storage": closed({"size": {"type": "string"}, "storageClass": {"type": "string"}}),
                "resources": RESOURCES,
                "affinity": closed(
                    {
                        "enablePodAntiAffinity": {"type": "boolean"},
                        "topologyKey": {"type": "string"},
                        # upstream a string; the operator knows these two
                        "podAntiAffinityType": {"enum": ["preferred", "required"]},
                    }
                ),
            },
            ("instances",),
        ),
    },
    ("apiVersion", "kind", "metadata", "spec"),
)

SCHEMAS: dict[tuple[str, str], Schema] = {
    ("postgresql.cnpg.io/v1", "Cluster"): CNPG_CLUSTER,
    ("monitoring.coreos.com/v1", "ServiceMonitor"): SERVICE_MONITOR,
    ("monitoring.coreos.com/v1", "PrometheusRule"): PROMETHEUS_RULE,
}
