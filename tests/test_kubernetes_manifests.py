"""deploy/kubernetes/ validates against the Kubernetes schemas (offline, the schemas ship in the
kubernetes-validate package) and runs what docker-compose.yml runs: the same commands, ports,
settings, resource limits and secrets, without root and on a read-only root filesystem.

The kustomize base and the example overlay are rendered here by ``render`` below (the subset of
kustomize the files use: resources, namespace, images, replicas, strategic-merge patches), so
no kustomize binary is needed; ``kubectl kustomize`` renders the same."""

from __future__ import annotations

import copy
import re
from pathlib import Path

import kubernetes_validate
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
KUBE = ROOT / "deploy/kubernetes"
SERVICES = ("registration", "pairing", "gameplay", "awards", "partners")
KUBERNETES_VERSION = "1.32.0"  # the oldest minor still supported upstream when this was written
CLUSTER_WIDE = {"Namespace", "ClusterRole", "ClusterRoleBinding", "PersistentVolume", "StorageClass"}


# --- a small kustomize -------------------------------------------------------------------------


def _merge(base, patch):
    """Strategic merge as kustomize does it for these files: maps merge key by key, lists of
    named items merge item by item, other lists and values are replaced."""
    if isinstance(base, dict) and isinstance(patch, dict):
        merged = dict(base)
        for key, value in patch.items():
            merged[key] = _merge(base[key], value) if key in base else copy.deepcopy(value)
        return merged
    if (
        isinstance(base, list)
        and isinstance(patch, list)
        and patch
        and all(isinstance(i, dict) and "name" in i for i in base + patch)
    ):
        merged = [copy.deepcopy(i) for i in base]
        for item in patch:
            at = next((n for n, old in enumerate(merged) if old["name"] == item["name"]), None)
            if at is None:
                merged.append(copy.deepcopy(item))
            else:
                merged[at] = _merge(merged[at], item)
        return merged
    return copy.deepcopy(patch)


def _containers(doc: dict) -> list[dict]:
    pod = doc.get("spec", {}).get("template", {}).get("spec", {})
    return pod.get("containers", []) + pod.get("initContainers", [])


def render(folder: Path) -> list[dict]:
    k = yaml.safe_load((folder / "kustomization.yaml").read_text())
    unsupported = set(k) - {"apiVersion", "kind", "resources", "namespace", "images", "replicas", "patches"}
    assert not unsupported, f"render() does not know {unsupported}: extend it or keep the files simple"
    docs: list[dict] = []
    for entry in k.get("resources", []):
        path = folder / entry
        docs += render(path) if path.is_dir() else [d for d in yaml.safe_load_all(path.read_text()) if d]
    for patch in k.get("patches", []):
        p = yaml.safe_load((folder / patch["path"]).read_text())
        at = [n for n, d in enumerate(docs) if (d["kind"], d["metadata"]["name"]) == (p["kind"], p["metadata"]["name"])]
        assert len(at) == 1, f"patch {patch['path']} matches {len(at)} resources"
        docs[at[0]] = _merge(docs[at[0]], p)
    for r in k.get("replicas", []):
        for d in docs:
            if d["kind"] == "Deployment" and d["metadata"]["name"] == r["name"]:
                d["spec"]["replicas"] = r["count"]
    for image in k.get("images", []):
        for d in docs:
            for c in _containers(d):
                if c["image"].split(":")[0] == image["name"]:
                    c["image"] = f"{image.get('newName', image['name'])}:{image['newTag']}"
    if "namespace" in k:
        for d in docs:
            if d["kind"] not in CLUSTER_WIDE:
                d["metadata"]["namespace"] = k["namespace"]
    return docs


BASE = render(KUBE / "base")
OVERLAY = render(KUBE / "overlays/example")


def _compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]


def _one(docs: list[dict], kind: str, name: str) -> dict:
    found = [d for d in docs if d["kind"] == kind and d["metadata"]["name"] == name]
    assert len(found) == 1, f"{kind}/{name}: {len(found)} found"
    return found[0]


def _cpu(value) -> float:
    text = str(value)
    return int(text[:-1]) / 1000 if text.endswith("m") else float(text)


def _mebibytes(value: str) -> int:
    number, unit = re.fullmatch(r"(\d+)([A-Za-z]*)", str(value)).groups()
    return int(number) * {"M": 1, "Mi": 1, "G": 1024, "Gi": 1024}[unit]


# --- schemas -----------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("docs", [BASE, OVERLAY], ids=["base", "overlay-example"])
def test_every_manifest_validates_against_the_kubernetes_schemas_offline(docs):
    kinds = {d["kind"] for d in docs}
    assert {"Deployment", "Service", "Job", "PodDisruptionBudget", "HorizontalPodAutoscaler", "ConfigMap"} <= kinds
    for doc in docs:
        # strict: an unknown (misspelt) field is an error too
        kubernetes_validate.validate(doc, KUBERNETES_VERSION, strict=True)


def test_the_schema_check_can_fail():
    broken = copy.deepcopy(_one(BASE, "Deployment", "gameplay"))
    broken["spec"]["template"]["spec"]["containers"][0]["readinessProbe"]["httpGet"]["port"] = {"name": "http"}
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(broken, KUBERNETES_VERSION, strict=True)
    misspelt = copy.deepcopy(_one(BASE, "Service", "gameplay"))
    misspelt["spec"]["prots"] = misspelt["spec"].pop("ports")
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(misspelt, KUBERNETES_VERSION, strict=True)


# --- the same as docker-compose.yml ------------------------------------------------------------


@pytest.mark.parametrize("service", SERVICES)
def test_each_service_runs_the_compose_command_port_settings_and_limits(service):
    compose = _compose()
    spec = compose[service]
    deployment = _one(BASE, "Deployment", service)
    (container,) = deployment["spec"]["template"]["spec"]["containers"]
    assert container["command"] == spec["command"]
    assert container["image"] == f"gomoku-{service}"
    port = int(spec["command"][spec["command"].index("--port") + 1])
    assert spec["expose"] == [str(port)]
    assert container["ports"] == [{"name": "http", "containerPort": port}]
    annotations = deployment["spec"]["template"]["metadata"]["annotations"]
    assert annotations["prometheus.io/port"] == str(port) and annotations["prometheus.io/path"] == "/metrics"
    k8s_service = _one(BASE, "Service", service)
    assert k8s_service["spec"]["ports"] == [{"name": "http", "port": port, "targetPort": "http"}]
    assert k8s_service["spec"]["selector"].items() <= deployment["spec"]["template"]["metadata"]["labels"].items()
    assert deployment["spec"]["selector"]["matchLabels"] == k8s_service["spec"]["selector"]

    # health: readiness from /readyz (as the compose healthcheck), liveness from /healthz
    assert container["readinessProbe"]["httpGet"] == {"path": "/readyz", "port": "http"}
    assert container["livenessProbe"]["httpGet"] == {"path": "/healthz", "port": "http"}
    assert "/readyz" in " ".join(spec["healthcheck"]["test"])

    # settings: the ConfigMap holds the compose file's plain values, the Secret its secret ones
    config = _one(BASE, "ConfigMap", "gomoku-config")["data"]
    secret_refs = {e["name"]: e["valueFrom"]["secretKeyRef"] for e in container["env"]}
    assert container["envFrom"] == [{"configMapRef": {"name": "gomoku-config"}}]
    assert set(config) | set(secret_refs) == set(spec["environment"])
    for key, value in spec["environment"].items():
        if "${" in str(value):
            assert secret_refs[key]["name"] == "gomoku-secrets", key
        else:
            assert config[key] == str(value), key
    assert secret_refs["DATABASE_URL"]["key"] == f"{service}-database-url"

    # limits as in compose; requests below them
    limits = spec["deploy"]["resources"]["limits"]
    resources = container["resources"]
    assert _cpu(resources["limits"]["cpu"]) == float(limits["cpus"])
    assert _mebibytes(resources["limits"]["memory"]) == _mebibytes(limits["memory"])
    assert _cpu(resources["requests"]["cpu"]) <= _cpu(resources["limits"]["cpu"])
    assert _mebibytes(resources["requests"]["memory"]) <= _mebibytes(resources["limits"]["memory"])


@pytest.mark.parametrize("service", SERVICES)
def test_each_service_migrates_in_a_job_with_the_compose_command(service):
    migrate = _compose()[f"{service}-migrate"]
    job = _one(BASE, "Job", f"{service}-migrate")
    pod = job["spec"]["template"]["spec"]
    (container,) = pod["containers"]
    assert container["command"] == migrate["command"]
    assert container["image"] == f"gomoku-{service}"
    assert pod["restartPolicy"] == "OnFailure"
    assert {e["name"]: e["valueFrom"]["secretKeyRef"]["key"] for e in container["env"]} == {
        "DATABASE_URL": f"{service}-database-url"
    }
    assert set(migrate["environment"]) == {"DATABASE_URL"}


def test_the_gateway_runs_the_compose_gateway_with_the_same_caddyfile():
    gateway = _compose()["gateway"]
    deployment = _one(BASE, "Deployment", "gateway")
    pod = deployment["spec"]["template"]["spec"]
    (container,) = pod["containers"]
    assert container["image"] == gateway["image"]
    assert container["args"] == gateway["command"] and "command" not in container
    assert {e["name"]: e["value"] for e in container["env"]} == {k: str(v) for k, v in gateway["environment"].items()}
    port = int(gateway["environment"]["GATEWAY_PORT"])
    assert container["ports"] == [{"name": "http", "containerPort": port}]
    assert gateway["ports"] == [f"${{GATEWAY_PUBLISH:-{port}}}:{port}"]
    caddyfile = _one(BASE, "ConfigMap", "gateway-config")["data"]["Caddyfile"]
    assert caddyfile == (ROOT / "deploy/gateway/Caddyfile").read_text(), (
        "the ConfigMap's copy of the gateway configuration differs from deploy/gateway/Caddyfile"
    )
    mounts = {m["mountPath"]: m for m in container["volumeMounts"]}
    volumes = {v["name"]: v for v in pod["volumes"]}
    config = gateway["command"][gateway["command"].index("--config") + 1]
    mounted = mounts[str(Path(config).parent)]
    assert mounted["readOnly"] is True and volumes[mounted["name"]]["configMap"]["name"] == "gateway-config"
    # Caddy's data and config folders and /tmp: writable volumes, read-only root
    for path in ("/data", "/config", "/tmp"):
        assert "emptyDir" in volumes[mounts[path]["name"]], path


# --- operations --------------------------------------------------------------------------------


def _pod_specs(docs):
    for d in docs:
        if d["kind"] in ("Deployment", "Job"):
            yield d["metadata"]["name"], d["spec"]["template"]["spec"]


def test_no_container_runs_as_root_or_writes_its_root_filesystem():
    # every image is built from the one Dockerfile (its build argument SERVICE names the service)
    image_user = int(re.search(r"useradd --uid (\d+)", (ROOT / "Dockerfile").read_text()).group(1))
    image_users = dict.fromkeys(SERVICES, image_user)
    for name, pod in _pod_specs(BASE):
        context = pod["securityContext"]
        assert context["runAsNonRoot"] is True, name
        service = name.removesuffix("-migrate")
        if service in image_users:
            assert context["runAsUser"] == image_users[service], f"{name} runs as the image's user"
        for c in pod["containers"]:
            sc = c["securityContext"]
            assert sc["readOnlyRootFilesystem"] is True and sc["allowPrivilegeEscalation"] is False, name
            assert sc["capabilities"]["drop"] == ["ALL"], name
            tmp = [m for m in c["volumeMounts"] if m["mountPath"] == "/tmp"]
            assert tmp and "emptyDir" in {v["name"]: v for v in pod["volumes"]}[tmp[0]["name"]], name
            assert c["resources"]["limits"] and c["resources"]["requests"], name


def test_every_deployment_has_a_disruption_budget_and_gameplay_and_the_gateway_autoscale():
    deployments = {d["metadata"]["name"]: d for d in BASE if d["kind"] == "Deployment"}
    assert set(deployments) == {*SERVICES, "portal", "gateway"}
    for name, deployment in deployments.items():
        pdb = _one(BASE, "PodDisruptionBudget", name)
        assert pdb["spec"]["selector"]["matchLabels"] == deployment["spec"]["selector"]["matchLabels"]
        assert deployment["spec"]["strategy"]["rollingUpdate"]["maxUnavailable"] == 0
    for name in ("gameplay", "gateway", "portal"):  # portal: the web front, its sessions shared (ADR 0009)
        hpa = _one(BASE, "HorizontalPodAutoscaler", name)
        assert hpa["spec"]["scaleTargetRef"] == {"apiVersion": "apps/v1", "kind": "Deployment", "name": name}
        assert hpa["spec"]["minReplicas"] >= 2 and hpa["spec"]["maxReplicas"] > hpa["spec"]["minReplicas"]


def test_every_secret_the_manifests_read_is_documented_for_operators():
    keys = set()
    for _, pod in _pod_specs(BASE):
        for c in pod["containers"]:
            keys |= {e["valueFrom"]["secretKeyRef"]["key"] for e in c.get("env", []) if "valueFrom" in e}
    assert keys == {
        "amqp-url",
        "api-keys",
        "data-key",
        "partners-key",
        "partners-service-key",
        "portal-api-key",
        "portal-session-secret",
        *(f"{s}-database-url" for s in (*SERVICES, "portal")),
    }
    operators = (ROOT / "docs/operators.md").read_text()
    for key in keys:
        assert f"`{key}`" in operators, f"docs/operators.md does not say what goes in {key}"


def test_the_example_overlay_sets_namespace_images_and_replicas():
    assert {d["metadata"].get("namespace") for d in OVERLAY} == {"gomoku"}
    for s in SERVICES:
        for doc in (_one(OVERLAY, "Deployment", s), _one(OVERLAY, "Job", f"{s}-migrate")):
            assert _containers(doc)[0]["image"] == f"registry.example.com/gomoku/{s}:0.1.0"
    assert _one(OVERLAY, "Deployment", "gameplay")["spec"]["replicas"] == 3
    assert _one(OVERLAY, "HorizontalPodAutoscaler", "gameplay")["spec"]["minReplicas"] == 3
    gateway = _one(OVERLAY, "Service", "gateway")
    assert gateway["spec"]["type"] == "LoadBalancer" and gateway["spec"]["ports"][0]["targetPort"] == "http"
    assert len(OVERLAY) == len(BASE)


def test_the_portal_sends_its_session_cookie_over_https_only():
    """Issue 27 finding 7: the session cookie is Secure in Kubernetes (TLS at the gateway or the
    ingress), as compose's default; every service and the portal read the client address from
    the gateway's X-Forwarded-For (failed sign-ins are throttled per address)."""
    deployment = _one(BASE, "Deployment", "portal")
    (container,) = deployment["spec"]["template"]["spec"]["containers"]
    env = {e["name"]: e.get("value") for e in container["env"]}
    assert env["PORTAL_SECURE_COOKIES"] == "true"
    assert env["FORWARDED_ALLOW_IPS"] == _compose()["portal"]["environment"]["FORWARDED_ALLOW_IPS"]
    assert _one(BASE, "ConfigMap", "gomoku-config")["data"]["FORWARDED_ALLOW_IPS"] == "*"
