import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { alertmanagerConfig, Prometheus, PrometheusArgs, prometheusValues } from "../../components";
import { GRAFANA_ADMIN_INIT_CONTAINER, GRAFANA_ADMIN_SCRIPT } from "../../components/prometheus/grafanaAdmin";
import { SECRETS_REVISION_ANNOTATION } from "../../components/passwordRotation";
import { CHARTS } from "../../contracts";
import { k8sProviderRef, testProvider, validateKubernetesObjects } from "../support/k8s";
import { find, installMocks, isWrappedSecret, ofType, promiseOf, Registration, settle, unwrapSecrets, plainStrings } from "../support/mocks";

const RELEASE = "kubernetes:helm.sh/v3:Release";
const SERVICE_MONITOR = "kubernetes:monitoring.coreos.com/v1:ServiceMonitor";

interface ClaimSpec {
    resources: { requests: { storage: string } };
    storageClassName?: string;
}
interface Values {
    crds: { enabled: boolean };
    prometheus: { prometheusSpec: Record<string, unknown> & { storageSpec: { volumeClaimTemplate: { spec: ClaimSpec } } } };
    alertmanager: { alertmanagerSpec: { storage: { volumeClaimTemplate: { spec: ClaimSpec } } } };
    grafana: {
        admin: unknown;
        adminPassword?: string;
        persistence: { enabled: boolean; size: string; storageClassName?: string };
        podAnnotations?: Record<string, string>;
        extraInitContainers: Record<string, unknown>[];
        deploymentStrategy: { type: string };
    };
}

const values = (storageClassName?: string) =>
    prometheusValues({ grafanaAdminSecret: "grafana-admin", storageSize: "20Gi", dashboardStorageSize: "3Gi", storageClassName }) as unknown as Values;

describe("prometheusValues", () => {
    it("selects every ServiceMonitor, PodMonitor, rule and probe in the cluster, not only the release's own", () => {
        const spec = values().prometheus.prometheusSpec;
        for (const key of ["serviceMonitor", "podMonitor", "rule", "probe"]) expect(spec[`${key}SelectorNilUsesHelmValues`], key).toBe(false);
        expect(spec.serviceMonitorSelector).toEqual({});
    });

    it("gives Prometheus a volume of the storage size, Alertmanager and Grafana volumes of the dashboard size", () => {
        const v = values();
        expect(v.prometheus.prometheusSpec.storageSpec.volumeClaimTemplate.spec.resources.requests.storage).toBe("20Gi");
        expect(v.alertmanager.alertmanagerSpec.storage.volumeClaimTemplate.spec.resources.requests.storage).toBe("3Gi");
        expect(v.grafana.persistence).toMatchObject({ enabled: true, size: "3Gi" });
    });

    it("sets the StorageClass on all three volumes only when one is given", () => {
        const claims = (v: Values) => [
            v.prometheus.prometheusSpec.storageSpec.volumeClaimTemplate.spec,
            v.alertmanager.alertmanagerSpec.storage.volumeClaimTemplate.spec,
            v.grafana.persistence,
        ];
        for (const c of claims(values("gp3"))) expect(c.storageClassName).toBe("gp3");
        for (const c of claims(values())) expect(c).not.toHaveProperty("storageClassName");
    });

    it("has Grafana read its admin credentials from the Secret, with no password in the values", () => {
        const v = values();
        expect(v.grafana.admin).toEqual({ existingSecret: "grafana-admin", userKey: "admin-user", passwordKey: "admin-password" });
        expect(v.grafana).not.toHaveProperty("adminPassword");
    });

    it("installs the operator's CRDs", () => {
        expect(values().crds).toEqual({ enabled: true });
    });

    it("sets Grafana's admin password from the Secret before every start, with Grafana's own CLI on its data directory", () => {
        const [init, ...more] = values().grafana.extraInitContainers;
        expect(more).toEqual([]);
        expect(init).toMatchObject({
            name: GRAFANA_ADMIN_INIT_CONTAINER,
            // Grafana's image, as the chart runs it (rendered by the chart's tpl: test/render/grafanaAdmin.test.ts).
            image: expect.stringContaining("{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}"),
            command: ["sh", "-c", GRAFANA_ADMIN_SCRIPT],
            env: [{ name: "GRAFANA_ADMIN_PASSWORD", valueFrom: { secretKeyRef: { name: "grafana-admin", key: "admin-password" } } }],
            volumeMounts: [
                { name: "config", mountPath: "/etc/grafana/grafana.ini", subPath: "grafana.ini" },
                { name: "storage", mountPath: "/var/lib/grafana" },
            ],
        });
        // The password reaches the CLI on its standard input, never as an argument; a database not yet made is left to Grafana.
        expect(GRAFANA_ADMIN_SCRIPT).toContain(`printf '%s\\n' "$GRAFANA_ADMIN_PASSWORD" | grafana cli --homepath /usr/share/grafana --config /etc/grafana/grafana.ini admin reset-admin-password --password-from-stdin`);
        expect(GRAFANA_ADMIN_SCRIPT).toContain("if [ ! -s /var/lib/grafana/grafana.db ]; then");
        // Recreated, so the new pod's init container never writes the database the old Grafana has open.
        expect(values().grafana.deploymentStrategy).toEqual({ type: "Recreate" });
    });

    it("annotates Grafana's pods only with what it is given", () => {
        expect(values().grafana).not.toHaveProperty("podAnnotations");
        const v = prometheusValues({ grafanaAdminSecret: "s", grafanaPodAnnotations: { [SECRETS_REVISION_ANNOTATION]: "s=7" }, storageSize: "1Gi", dashboardStorageSize: "1Gi" }) as unknown as Values;
        expect(v.grafana.podAnnotations).toEqual({ [SECRETS_REVISION_ANNOTATION]: "s=7" });
    });
});

describe("a rotated Grafana admin password", () => {
    const revisionFor = async (password: string) => {
        const { registrations } = await installMocks();
        new Prometheus("prometheus", { grafanaAdminPassword: password }, { providers: [testProvider()] });
        await settle();
        const values = find(registrations, RELEASE, "prometheus-release").inputs!.values as Values;
        return { values, registrations };
    };

    it("changes Grafana's pod template when, and only when, the password changes; no derivative of the password is in it", async () => {
        const first = await revisionFor("grafana-password-one");
        const same = await revisionFor("grafana-password-one");
        const rotated = await revisionFor("grafana-password-two");
        const annotation = (v: Values) => v.grafana.podAnnotations?.[SECRETS_REVISION_ANNOTATION];
        expect(annotation(same.values)).toBe(annotation(first.values));
        expect(annotation(rotated.values)).not.toBe(annotation(first.values));
        // Everything else of the release stays as it was: only the pod template moves.
        const without = (v: Values) => ({ ...v, grafana: { ...v.grafana, podAnnotations: undefined } });
        expect(without(rotated.values)).toEqual(without(first.values));
        for (const pw of ["grafana-password-one", "grafana-password-two"]) {
            const plain = [...first.registrations, ...rotated.registrations].flatMap((r) => plainStrings(r.inputs));
            expect(plain.filter((s) => s.includes(pw))).toEqual([]);
        }
        const { createHash } = await import("crypto");
        const digests = ["grafana-password-two", "admin"].flatMap((pw) => [createHash("sha256").update(pw).digest("hex"), Buffer.from(pw).toString("base64")]);
        expect(digests.filter((d) => JSON.stringify(rotated.values).includes(d))).toEqual([]);
        // Three whole components (each registers kube-prometheus-stack's CRDs): many times their idle need, for a loaded machine.
    }, 180_000);
});

describe("Prometheus", () => {
    const PASSWORD = "grafana-secret-pw";
    const ARGS: PrometheusArgs = {
        grafanaAdminPassword: PASSWORD,
        storageSize: "20Gi",
        ingressControllerMetrics: { namespace: pulumi.output("nginx-ingress"), selector: { "app.kubernetes.io/name": "kic" }, port: "prometheus" },
    };
    let regs: Registration[];
    let prom: Prometheus;
    let provider: string;

    beforeAll(async () => {
        ({ registrations: regs } = await installMocks());
        const k8s = testProvider();
        prom = new Prometheus("prometheus", ARGS, { providers: [k8s] });
        await settle();
        provider = await k8sProviderRef(k8s);
    }, 180_000);

    it("keeps Grafana's admin credentials in the grafana-admin Secret, the password secret-wrapped", () => {
        const secret = find(regs, "kubernetes:core/v1:Secret", "prometheus-grafana-admin");
        expect(secret.inputs!.metadata).toEqual({ name: "grafana-admin", namespace: "prometheus" });
        expect(isWrappedSecret(secret.inputs!.stringData)).toBe(true);
        expect(unwrapSecrets(secret.inputs!.stringData)).toEqual({ "admin-user": "admin", "admin-password": PASSWORD });
    });

    it("never puts the password in plain text into any registration", () => {
        for (const r of regs.filter((x) => x.inputs)) {
            for (const s of plainStrings(r.inputs)) expect(s, `${r.type} ${r.name}`).not.toContain(PASSWORD);
        }
    });

    it("installs kube-prometheus-stack from the catalogue, with Grafana reading that Secret", () => {
        const release = find(regs, RELEASE, "prometheus-release");
        expect(release.inputs).toMatchObject({
            name: "prometheus",
            namespace: "prometheus",
            chart: CHARTS.prometheus.chart,
            version: CHARTS.prometheus.version,
            repositoryOpts: { repo: CHARTS.prometheus.repositoryUrl },
        });
        const revision = { [SECRETS_REVISION_ANNOTATION]: (release.inputs!.values as Values).grafana.podAnnotations![SECRETS_REVISION_ANNOTATION]! };
        expect(release.inputs!.values).toEqual(
            prometheusValues({ grafanaAdminSecret: "grafana-admin", grafanaPodAnnotations: revision, storageSize: "20Gi", dashboardStorageSize: "5Gi", alertmanagerConfig: alertmanagerConfig() }),
        );
        // The Secret's resource version, an API server counter: nothing in it derives from the password.
        expect(revision[SECRETS_REVISION_ANNOTATION]).toMatch(/^grafana-admin=\d+$/);
        expect(release.dependencies).toContain(find(regs, "kubernetes:core/v1:Secret", "prometheus-grafana-admin").urn);
    });

    it("installs the statsd exporter from the catalogue after the main release, with its ServiceMonitor in the namespace", () => {
        const statsd = find(regs, RELEASE, "prometheus-statsd");
        expect(statsd.inputs).toMatchObject({
            name: "statsd",
            namespace: "prometheus",
            chart: CHARTS.statsd.chart,
            version: CHARTS.statsd.version,
            values: { serviceMonitor: { enabled: true, namespace: "prometheus" } },
        });
        expect(statsd.dependencies).toContain(find(regs, RELEASE, "prometheus-release").urn);
    });

    it("scrapes the ingress controller through a ServiceMonitor created after the release that installs its CRD", () => {
        const monitor = find(regs, SERVICE_MONITOR, "prometheus-nginx-ingress");
        expect(monitor.inputs).toMatchObject({ apiVersion: "monitoring.coreos.com/v1", kind: "ServiceMonitor", metadata: { name: "nginx-ingress", namespace: "prometheus" } });
        expect(monitor.inputs!.spec).toEqual({
            namespaceSelector: { matchNames: ["nginx-ingress"] },
            selector: { matchLabels: { "app.kubernetes.io/name": "kic" } },
            endpoints: [{ port: "prometheus", interval: "15s", scheme: "http" }],
        });
        expect(monitor.dependencies).toContain(find(regs, RELEASE, "prometheus-release").urn);
    });

    it("exports the in-cluster addresses of Prometheus, Grafana, Alertmanager and the statsd exporter", async () => {
        expect(await promiseOf(prom.namespace)).toBe("prometheus");
        expect(await promiseOf(prom.prometheusAddress)).toBe("prometheus-kube-prometheus-prometheus.prometheus.svc.cluster.local:9090");
        expect(await promiseOf(prom.grafanaAddress)).toBe("prometheus-grafana.prometheus.svc.cluster.local:80");
        expect(await promiseOf(prom.alertmanagerAddress)).toBe("prometheus-kube-prometheus-alertmanager.prometheus.svc.cluster.local:9093");
        expect(await promiseOf(prom.statsdHost)).toBe("statsd-prometheus-statsd-exporter.prometheus.svc.cluster.local");
    });

    it("puts everything on the cluster's provider and passes schema validation", () => {
        // The CRDs are covered by chartCrds.test.ts.
        const objects = regs.filter((x) => x.type.startsWith("kubernetes:") && !x.type.endsWith(":CustomResourceDefinitionPatch"));
        // Namespace, admin Secret, two releases, the ServiceMonitor and the ingress controller's dashboard.
        expect(objects).toHaveLength(6);
        for (const r of objects) expect(r.provider, r.name).toBe(provider);
        const { checked, errors } = validateKubernetesObjects(regs);
        expect(errors).toEqual([]);
        expect(checked).toEqual(expect.arrayContaining(["Namespace/prometheus-ns", "Secret/prometheus-grafana-admin"]));
    });
});

describe("Prometheus without ingress controller metrics", () => {
    let regs: Registration[];

    beforeAll(async () => {
        ({ registrations: regs } = await installMocks());
        new Prometheus(
            "prometheus",
            { grafanaAdminPassword: "pw", dashboardStorageSize: "2Gi", storageClassName: "gp3" },
            { providers: [testProvider()] },
        );
        await settle();
    }, 180_000);

    it("creates no ServiceMonitor", () => {
        expect(ofType(regs, SERVICE_MONITOR)).toEqual([]);
    });

    it("passes the sizes and StorageClass given into the chart values", () => {
        const values = find(regs, RELEASE, "prometheus-release").inputs!.values as Values;
        expect(values).toEqual(
            prometheusValues({
                grafanaAdminSecret: "grafana-admin",
                grafanaPodAnnotations: values.grafana.podAnnotations,
                storageSize: "10Gi",
                dashboardStorageSize: "2Gi",
                storageClassName: "gp3",
                alertmanagerConfig: alertmanagerConfig(),
            }),
        );
    });
});

describe("Prometheus argument checks", () => {
    it.each([
        [{ storageSize: "20GB" }, 'Prometheus: storageSize "20GB" is not a positive volume size in Mi, Gi or Ti, such as 10Gi.'],
        [{ dashboardStorageSize: "5 Gi" }, 'Prometheus: dashboardStorageSize "5 Gi" is not a positive volume size in Mi, Gi or Ti, such as 10Gi.'],
    ])("rejects %j before creating anything", async (over, message) => {
        const { registrations } = await installMocks();
        expect(() => new Prometheus("bad", { grafanaAdminPassword: "pw", ...over })).toThrow(new Error(message));
        await settle();
        expect(registrations.filter((r) => r.custom)).toEqual([]);
    });
});
