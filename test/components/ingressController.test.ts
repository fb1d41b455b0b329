import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { ACCESS_LOG_FORMAT, dockerConfigJson, IngressController, ingressControllerValues, KicValuesInput } from "../../components";
import { ACCESS_LOG_FIELDS } from "../../components/ingressController";
import { logParsers, NGINX_ACCESS_PARSER } from "../../components/logFormats";
import { CHARTS } from "../../contracts";
import { k8sProviderRef, testProvider, validateKubernetesObjects } from "../support/k8s";
import { podSecurityLabels } from "../../components/podSecurity";
import { find, installMocks, isWrappedSecret, ofType, promiseOf, Registration, settle, unwrapSecrets } from "../support/mocks";

const RELEASE = "kubernetes:helm.sh/v3:Release";
const SECRET = "kubernetes:core/v1:Secret";
const SERVICE = "kubernetes:core/v1:Service";
const NAMESPACE = "kubernetes:core/v1:Namespace";
const LB_HOSTNAME = "a1b2c3-123.elb.us-east-1.amazonaws.com";
const CREDS = { server: "123456789012.dkr.ecr.us-east-1.amazonaws.com", username: "AWS", password: "ecr-push-token" };
const JWT = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJtYXJhIn0.c2lnbmF0dXJl";
const REPO = "123456789012.dkr.ecr.us-east-1.amazonaws.com/ingress-controller-dev";

const base: KicValuesInput = { repository: "nginx/nginx-ingress", tag: "5.5.4", nginxPlus: false, pullSecret: false, replicas: 1, className: "nginx" };
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const controller = (v: Record<string, unknown>): any => v.controller;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const inputs = (r: Registration): any => r.inputs;

describe("ingressControllerValues", () => {
    it("runs the given image by tag", () => {
        expect(controller(ingressControllerValues(base)).image).toEqual({ repository: "nginx/nginx-ingress", tag: "5.5.4", pullPolicy: "IfNotPresent" });
    });

    it("pins a sha256: reference as the chart's digest, not as a tag", () => {
        const image = controller(ingressControllerValues({ ...base, tag: `sha256:${"ab".repeat(32)}` })).image;
        expect(image).toEqual({ repository: "nginx/nginx-ingress", digest: `sha256:${"ab".repeat(32)}`, pullPolicy: "IfNotPresent" });
    });

    it("turns on NGINX Plus and its license Secret only for Plus", () => {
        const plus = controller(ingressControllerValues({ ...base, nginxPlus: true }));
        expect(plus.nginxplus).toBe(true);
        expect(plus.mgmt).toEqual({ licenseTokenSecretName: "license-token" });
        const oss = controller(ingressControllerValues(base));
        expect(oss.nginxplus).toBe(false);
        expect(oss).not.toHaveProperty("mgmt");
    });

    it("sends traces to the OTLP endpoint only when one is given", () => {
        const traced = controller(ingressControllerValues({ ...base, tracingEndpoint: "collector.observability:9978" })).config.entries;
        expect(traced).toMatchObject({ "otel-exporter-endpoint": "collector.observability:9978", "otel-service-name": "nginx-ingress", "otel-trace-in-http": "true" });
        const untraced = controller(ingressControllerValues(base)).config.entries;
        expect(Object.keys(untraced).filter((k) => k.startsWith("otel-"))).toEqual([]);
    });

    it("logs access as JSON with JSON escaping, for the log agent's nginx-access parser (stdout only)", () => {
        const c = controller(ingressControllerValues(base));
        expect(c.config.entries["log-format-escaping"]).toBe("json");
        expect(c.config.entries["log-format"]).toBe(ACCESS_LOG_FORMAT);
        expect(c.pod.annotations).toEqual({ "fluentbit.io/parser_stdout": NGINX_ACCESS_PARSER });
    });

    /**
     * One access-log line as NGINX writes it: each variable replaced by its value, escaped as `escape=json` does
     * (quote, backslash and control characters), an empty value written as nothing.
     */
    const logLine = (vars: Record<string, string>) =>
        ACCESS_LOG_FORMAT.replace(/\$([a-z_0-9]+)/g, (_, name: string) => {
            if (!(name in vars)) throw new Error(`no sample value for $${name}`);
            return vars[name]!.replace(/[\\"\u0000-\u001f]/g, (ch) =>
                ({ '"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f" })[ch] ?? `\\u00${ch.charCodeAt(0).toString(16).padStart(2, "0")}`,
            );
        });
    const request = {
        msec: "1732312741.123", status: "502", body_bytes_sent: "157", bytes_sent: "330", request_length: "512", request_time: "0.008",
        remote_addr: "203.0.113.7", remote_user: "", request: 'GET /login?next="/home" HTTP/1.1', request_method: "GET", host: "bank.example.com",
        uri: "/login", server_protocol: "HTTP/1.1", http_referer: "", http_user_agent: 'Mozilla/5.0 "quoted"\\ \t tab', request_id: "4f1c",
        proxy_host: "bos-frontend-80", upstream_addr: "10.0.1.5:8080, 10.0.1.6:8080", upstream_status: "502, 502", upstream_response_time: "0.002, 0.004",
        upstream_bytes_sent: "480, 480",
    };

    it("writes a line the nginx-access parser decodes into fields under nginx., numbers as numbers, whatever the request holds", () => {
        // The parser is Format json: the line must be one valid JSON object.
        const record = JSON.parse(logLine(request)) as { time: string; nginx: Record<string, unknown> };
        expect(Object.keys(record)).toEqual(["time", "nginx"]);
        expect(Object.keys(record.nginx).sort()).toEqual([...ACCESS_LOG_FIELDS].sort());
        expect(record.nginx).toMatchObject({ status: 502, request_time: 0.008, body_bytes_sent: 157, request_length: 512, bytes_sent: 330 });
        // Values NGINX may write as lists or leave empty stay strings, exactly as logged.
        expect(record.nginx).toMatchObject({ upstream_response_time: "0.002, 0.004", upstream_status: "502, 502", remote_user: "", http_referer: "" });
        expect(record.nginx.request).toBe(request.request);
        expect(record.nginx.http_user_agent).toBe(request.http_user_agent);
        // A request served without an upstream (a redirect, the default server's 404).
        const direct = JSON.parse(logLine({ ...request, status: "404", upstream_addr: "", upstream_status: "", upstream_response_time: "", upstream_bytes_sent: "", proxy_host: "" }));
        expect(direct.nginx).toMatchObject({ status: 404, upstream_response_time: "" });
    });

    it("gives the record time in the form the parser's Time_Format (%s.%L) reads: epoch seconds, a dot, milliseconds", () => {
        const parser = logParsers();
        expect(parser).toMatch(/\n {4}Name +nginx-access\n/);
        expect(parser).toMatch(/\n {4}Format +json\n/);
        expect(parser).toMatch(/\n {4}Time_Key +time\n {4}Time_Format +%s\.%L\n/);
        const record = JSON.parse(logLine(request)) as { time: string };
        expect(record.time).toMatch(/^\d{10}\.\d{3}$/);
        expect(new Date(Number(record.time) * 1000).toISOString()).toBe("2024-11-22T21:59:01.123Z");
    });

    it("leaves the Service to the component and reports its address on Ingresses", () => {
        const c = controller(ingressControllerValues(base));
        expect(c.service).toEqual({ create: false });
        expect(c.reportIngressStatus).toEqual({ externalService: "kic-nginx-ingress-controller" });
    });

    it("exposes Prometheus metrics on 9113 with a metrics Service", () => {
        expect(ingressControllerValues(base).prometheus).toEqual({ create: true, port: 9113, service: { create: true } });
    });

    it("names the pull secret only when there is one", () => {
        expect(controller(ingressControllerValues({ ...base, pullSecret: true })).serviceAccount).toEqual({ imagePullSecretName: "ingress-controller-registry" });
        expect(controller(ingressControllerValues(base)).serviceAccount).toEqual({});
    });

    it("creates the given IngressClass as the cluster default, with replicas as given", () => {
        const c = controller(ingressControllerValues({ ...base, className: "nginx-public", replicas: 3 }));
        expect(c.ingressClass).toEqual({ name: "nginx-public", create: true, setAsDefaultIngress: true });
        expect(c.replicaCount).toBe(3);
    });
});

describe("dockerConfigJson", () => {
    beforeAll(async () => {
        await installMocks();
    });

    it("authenticates to the image registry with a correct base64 auth field", async () => {
        const doc = JSON.parse(await promiseOf(dockerConfigJson(CREDS)));
        expect(Object.keys(doc.auths)).toEqual([CREDS.server]);
        expect(doc.auths[CREDS.server]).toMatchObject({ username: "AWS", password: "ecr-push-token" });
        expect(Buffer.from(doc.auths[CREDS.server].auth, "base64").toString()).toBe("AWS:ecr-push-token");
    });

    it("adds NGINX's private registry with the JWT as user name", async () => {
        const doc = JSON.parse(await promiseOf(dockerConfigJson(CREDS, JWT)));
        expect(Object.keys(doc.auths).sort()).toEqual([CREDS.server, "private-registry.nginx.com"].sort());
        const nginx = doc.auths["private-registry.nginx.com"];
        expect(nginx.username).toBe(JWT);
        expect(Buffer.from(nginx.auth, "base64").toString()).toBe(`${JWT}:${nginx.password}`);
        expect(Object.keys(JSON.parse(await promiseOf(dockerConfigJson(undefined, JWT))).auths)).toEqual(["private-registry.nginx.com"]);
    });

    it("is a secret, also when its inputs are not", async () => {
        expect(await pulumi.isSecret(dockerConfigJson(CREDS))).toBe(true);
        expect(await pulumi.isSecret(dockerConfigJson(undefined, JWT))).toBe(true);
    });
});

describe("IngressController on a host-name platform, with a private registry", () => {
    let regs: Registration[];
    let ic: IngressController;
    let provider: string;

    beforeAll(async () => {
        ({ registrations: regs } = await installMocks());
        const cluster = testProvider();
        ic = new IngressController(
            "ingress-controller",
            {
                imageRepository: REPO,
                imageTag: "5.5.4",
                registryCredentials: CREDS,
                replicas: 2,
                serviceAnnotations: { "service.beta.kubernetes.io/aws-load-balancer-type": "nlb" },
                fqdn: "mara.example.com",
                tracingEndpoint: "simplest-collector.observability.svc.cluster.local:9978",
            },
            { providers: [cluster] },
        );
        await settle();
        provider = await k8sProviderRef(cluster);
    });

    it("creates the nginx-ingress namespace, labelled for Prometheus scraping and marked as this stack's", () => {
        expect(find(regs, NAMESPACE, "ingress-controller-ns").inputs!.metadata).toEqual({
            name: "nginx-ingress",
            labels: { "app.kubernetes.io/part-of": "mara", ...podSecurityLabels("restricted"), prometheus: "scrape" },
            annotations: { "mara.nginx.com/stack": "mara/dev" },
        });
    });

    it("stores the registry credentials in a dockerconfigjson pull Secret, as a secret", () => {
        const secret = find(regs, SECRET, "ingress-controller-pull-secret");
        expect(inputs(secret).type).toBe("kubernetes.io/dockerconfigjson");
        expect(inputs(secret).metadata).toMatchObject({ name: "ingress-controller-registry", namespace: "nginx-ingress" });
        expect(isWrappedSecret(inputs(secret).stringData)).toBe(true);
        const doc = (unwrapSecrets(inputs(secret).stringData) as Record<string, string>)[".dockerconfigjson"]!;
        expect(JSON.parse(doc).auths[CREDS.server].password).toBe("ecr-push-token");
    });

    it("creates no license Secret without NGINX Plus", () => {
        expect(ofType(regs, SECRET).map((r) => r.name)).toEqual(["ingress-controller-pull-secret"]);
    });

    it("installs the catalogue's chart as release kic, after the namespace and the pull secret", () => {
        const release = find(regs, RELEASE, "ingress-controller-release");
        expect(release.inputs).toMatchObject({
            name: "kic",
            namespace: "nginx-ingress",
            chart: CHARTS.ingress.chart,
            version: CHARTS.ingress.version,
            repositoryOpts: { repo: CHARTS.ingress.repositoryUrl },
            timeout: CHARTS.ingress.timeoutSeconds,
        });
        expect(release.dependencies).toContain(find(regs, NAMESPACE, "ingress-controller-ns").urn);
        expect(release.dependencies).toContain(find(regs, SECRET, "ingress-controller-pull-secret").urn);
    });

    it("gives the chart the image, pull secret, tracing and replicas", () => {
        const c = inputs(find(regs, RELEASE, "ingress-controller-release")).values.controller;
        expect(c.image).toEqual({ repository: REPO, tag: "5.5.4", pullPolicy: "IfNotPresent" });
        expect(c.serviceAccount.imagePullSecretName).toBe(inputs(find(regs, SECRET, "ingress-controller-pull-secret")).metadata.name);
        expect(c.config.entries["otel-exporter-endpoint"]).toBe("simplest-collector.observability.svc.cluster.local:9978");
        expect(c.replicaCount).toBe(2);
        expect(c.nginxplus).toBe(false);
    });

    it("publishes only 80 and 443 on a LoadBalancer Service that keeps client addresses, after the release", () => {
        const svc = find(regs, SERVICE, "ingress-controller-service");
        expect(inputs(svc).spec).toMatchObject({ type: "LoadBalancer", externalTrafficPolicy: "Local" });
        expect(inputs(svc).spec.ports.map((p: { name: string; port: number }) => [p.name, p.port])).toEqual([
            ["http", 80],
            ["https", 443],
        ]);
        expect(inputs(svc).metadata.annotations).toEqual({ "service.beta.kubernetes.io/aws-load-balancer-type": "nlb" });
        expect(svc.dependencies).toContain(find(regs, RELEASE, "ingress-controller-release").urn);
    });

    it("names the Service as the chart reports it and selects the chart's controller pods", () => {
        const release = inputs(find(regs, RELEASE, "ingress-controller-release"));
        const svc = inputs(find(regs, SERVICE, "ingress-controller-service"));
        expect(release.values.controller.reportIngressStatus.externalService).toBe(svc.metadata.name);
        expect(svc.metadata.namespace).toBe("nginx-ingress");
        expect(svc.spec.selector).toEqual({ "app.kubernetes.io/name": "nginx-ingress", "app.kubernetes.io/instance": release.name });
    });

    it("keeps the dashboard (8080) and metrics (9113) on an internal ClusterIP Service, after the release", () => {
        const internal = find(regs, SERVICE, "ingress-controller-internal");
        expect(inputs(internal).spec.type).toBe("ClusterIP");
        expect(inputs(internal).spec.ports.map((p: { name: string; port: number }) => [p.name, p.port])).toEqual([
            ["dashboard", 8080],
            ["prometheus", 9113],
        ]);
        expect(inputs(find(regs, RELEASE, "ingress-controller-release")).values.prometheus.port).toBe(9113);
        expect(internal.dependencies).toContain(find(regs, RELEASE, "ingress-controller-release").urn);
    });

    it("puts everything on the cluster's provider and passes schema validation", () => {
        // The CRDs are covered by chartCrds.test.ts.
        const objects = regs.filter((x) => x.type.startsWith("kubernetes:") && !x.type.endsWith(":CustomResourceDefinitionPatch"));
        expect(objects.map((r) => r.name).sort()).toEqual(
            ["ingress-controller-internal", "ingress-controller-ns", "ingress-controller-pull-secret", "ingress-controller-release", "ingress-controller-service"],
        );
        for (const r of objects) expect(r.provider, r.name).toBe(provider);
        const { checked, errors } = validateKubernetesObjects(regs);
        expect(errors).toEqual([]);
        expect(checked.sort()).toEqual(
            ["Namespace/ingress-controller-ns", "Secret/ingress-controller-pull-secret", "Service/ingress-controller-service", "Service/ingress-controller-internal"].sort(),
        );
    });

    it("exports the load balancer's host name from the Service status", async () => {
        expect(await promiseOf(ic.loadBalancerHostname)).toBe(LB_HOSTNAME);
        expect(await promiseOf(ic.loadBalancerIp)).toBeUndefined();
        expect(await promiseOf(ic.namespace)).toBe("nginx-ingress");
        expect(await promiseOf(ic.ingressClassName)).toBe("nginx");
        expect(await promiseOf(ic.status)).toBe("deployed");
    });
});

describe("IngressController with NGINX Plus on an IP-address platform", () => {
    let regs: Registration[];
    let ic: IngressController;

    beforeAll(async () => {
        ({ registrations: regs } = await installMocks());
        ic = new IngressController(
            "ingress-controller",
            {
                imageRepository: "private-registry.nginx.com/nginx-ic/nginx-plus-ingress",
                imageTag: "5.5.4",
                nginxJwt: JWT,
                nginxPlus: true,
                loadBalancerAddress: "ip",
                fqdn: "mara.example.com",
            },
            { providers: [testProvider()] },
        );
        await settle();
    });

    it("stores the JWT in a nginx.com/license Secret the chart is pointed at", () => {
        const license = find(regs, SECRET, "ingress-controller-license");
        expect(inputs(license).type).toBe("nginx.com/license");
        expect(inputs(license).metadata).toMatchObject({ name: "license-token", namespace: "nginx-ingress" });
        expect(isWrappedSecret(inputs(license).stringData)).toBe(true);
        expect(unwrapSecrets(inputs(license).stringData)).toEqual({ "license.jwt": JWT });
        const c = inputs(find(regs, RELEASE, "ingress-controller-release")).values.controller;
        expect(c.nginxplus).toBe(true);
        expect(c.mgmt.licenseTokenSecretName).toBe(inputs(license).metadata.name);
    });

    it("pulls from NGINX's private registry with the JWT", () => {
        const stringData = inputs(find(regs, SECRET, "ingress-controller-pull-secret")).stringData;
        expect(isWrappedSecret(stringData)).toBe(true);
        const doc = (unwrapSecrets(stringData) as Record<string, string>)[".dockerconfigjson"]!;
        expect(Object.keys(JSON.parse(doc).auths)).toEqual(["private-registry.nginx.com"]);
    });

    it("installs the release after both Secrets", () => {
        const release = find(regs, RELEASE, "ingress-controller-release");
        for (const name of ["ingress-controller-pull-secret", "ingress-controller-license"]) expect(release.dependencies).toContain(find(regs, SECRET, name).urn);
    });

    it("passes schema validation", () => {
        const { checked, errors } = validateKubernetesObjects(regs);
        expect(errors).toEqual([]);
        expect(checked).toContain("Secret/ingress-controller-license");
    });

    it("reports the fqdn as the host name, where the load balancer has only an address", async () => {
        expect(await promiseOf(ic.loadBalancerHostname)).toBe("mara.example.com");
    });
});

describe("IngressController with a public image", () => {
    let regs: Registration[];
    let upstream: k8s.core.v1.ConfigMap;

    beforeAll(async () => {
        ({ registrations: regs } = await installMocks());
        const cluster = testProvider();
        upstream = new k8s.core.v1.ConfigMap("upstream", { data: { a: "b" } }, { provider: cluster });
        new IngressController(
            "ingress-controller",
            { imageRepository: "nginx/nginx-ingress", imageTag: `sha256:${"cd".repeat(32)}` },
            { providers: [cluster], dependsOn: [upstream] },
        );
        await settle();
    });

    it("creates no Secrets and names no pull secret", () => {
        expect(ofType(regs, SECRET)).toEqual([]);
        expect(inputs(find(regs, RELEASE, "ingress-controller-release")).values.controller.serviceAccount).toEqual({});
    });

    it("pins a digest tag as the chart's image digest", () => {
        expect(inputs(find(regs, RELEASE, "ingress-controller-release")).values.controller.image).toEqual({
            repository: "nginx/nginx-ingress",
            digest: `sha256:${"cd".repeat(32)}`,
            pullPolicy: "IfNotPresent",
        });
    });

    it("creates the namespace only after what the component depends on", async () => {
        expect(find(regs, NAMESPACE, "ingress-controller-ns").dependencies).toContain(await promiseOf(upstream.urn));
    });
});

describe("IngressController argument checks", () => {
    it.each([
        [{ nginxPlus: true }, "IngressController: nginxPlus needs nginxJwt, the NGINX Plus license token (a JWT from MyF5)."],
        [{ replicas: 0 }, "IngressController: replicas must be a whole number of at least 1; got 0."],
        [{ replicas: 1.5 }, "IngressController: replicas must be a whole number of at least 1; got 1.5."],
    ])("rejects %j before creating anything", async (override, message) => {
        const { registrations } = await installMocks();
        expect(() => new IngressController("bad", { imageRepository: "nginx/nginx-ingress", imageTag: "5.5.4", ...override })).toThrow(message);
        await settle();
        expect(registrations.filter((r) => r.custom)).toEqual([]);
    });
});
