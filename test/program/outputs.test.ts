/**
 * MARA's stack outputs, back: every output a MARA project exported has a row in the parity table of
 * docs/deploy.md, every output that table points to is one the program really exports, and every output the
 * program exports is described there. The release statuses and the NGINX Plus flag are checked for value.
 */
import * as fs from "fs";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import type { RawConfig } from "../../config";
import { fixture } from "../support/config";
import { promiseOf } from "../support/mocks";
import { runProgram } from "../support/program";

const DEPLOY = fs.readFileSync(path.join(__dirname, "..", "..", "docs", "deploy.md"), "utf8");

/** Every output of every MARA project (the reference's section 2), by project. */
const MARA_OUTPUTS: Record<string, string[]> = {
    "aws-vpc": ["azs", "vpc"],
    "aws-eks": ["cluster_name", "kubeconfig"],
    "aws-ecr": ["repository_url", "registry_id"],
    kubeconfig: ["cluster_name", "kubeconfig", "cluster_id"],
    "container-registry": ["container_registry_id", "container_registry_name", "container_registry"],
    "do-k8s": ["cluster_name", "cluster_id", "kubeconfig"],
    "container-registry-credentials": ["ingress-controller-registry-secret"],
    "dns-record": ["ingress_domain", "ingress_a_record"],
    lke: ["cluster_name", "cluster_id", "kubeconfig"],
    harbor: ["harbor_instance", "harbor_hostname", "harbor_user", "harbor_password"],
    "harbor-configuration": ["harbor_is_alive"],
    secrets: ["pulumi_secrets"],
    "kic-image-build": ["ingress_image"],
    "kic-image-push": ["container_repo_push"],
    "ingress-controller-namespace": ["ingress_namespace", "ingress_namespace_name"],
    "ingress-controller": ["lb_ingress_hostname", "lb_ingress", "lb_ingress_ip", "kic_status", "nginx_plus"],
    logstore: ["elastic_hostname", "kibana_hostname", "logstat_status"],
    logagent: ["logagent_status"],
    certmgr: ["certmgr_status"],
    prometheus: ["prom_status", "statsd_status", "prom_hostname"],
    "sirius-deploy": ["application_url", "hostname", "ipaddress", "ledgerdbmon_status", "accountsdbmon_status"],
};

/** Rows of the markdown table that follows `heading`, as cells. */
function table(heading: string): string[][] {
    const from = DEPLOY.indexOf(`\n${heading}\n`);
    expect(from, heading).toBeGreaterThan(0);
    const lines = DEPLOY.slice(from).split("\n").slice(2);
    const start = lines.findIndex((l) => l.startsWith("|"));
    const rows: string[][] = [];
    for (const l of lines.slice(start + 2)) {
        if (!l.startsWith("|")) break;
        rows.push(l.split(/(?<!\\)\|/).slice(1, -1).map((c) => c.trim()));
    }
    return rows;
}
const codeNames = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

describe("stack outputs and MARA's", () => {
    /** Output names the program exports, over every infra fixture. */
    const exported = new Set<string>();
    let outputs: Record<string, pulumi.Input<unknown>>;

    beforeAll(async () => {
        for (const name of ["canonical-aws", "mara-do", "mara-lke", "mara-kubeconfig"]) {
            const run = await runProgram(fixture(name, { secrets: { "digitalocean:token": "t", "linode:token": "t" } }));
            expect(run.error, name).toBeUndefined();
            Object.keys(run.outputs!).forEach((k) => exported.add(k));
            if (name === "canonical-aws") outputs = run.outputs!;
        }
    }, 300_000);

    it("every MARA output has a row in the parity table", () => {
        const rows = table("### MARA's outputs here");
        for (const [project, names] of Object.entries(MARA_OUTPUTS)) {
            for (const output of names) {
                const row = rows.find((r) => r[0]!.split(/,\s*/).some((p) => p.split(" ")[0] === project) && codeNames(r[1]!).includes(output));
                expect(row, `${project} ${output}`).toBeDefined();
            }
        }
    });

    it("every output the parity table points to is one the program exports", () => {
        for (const row of table("### MARA's outputs here")) {
            for (const name of codeNames(row[2]!)) {
                // Besides outputs, the column names a Secret, a namespace, a key and a constant in words.
                if (/^(ingress-controller-registry|nginx-ingress|kic-helm:fqdn|DEFAULTS\.)/.test(name)) continue;
                expect(exported, `${row[1]} → ${name}`).toContain(name);
            }
        }
    });

    it("every output the program exports is described, and nothing else is", () => {
        const described = table("## Stack outputs").flatMap((r) => codeNames(r[0]!));
        expect([...exported].sort()).toEqual([...new Set(described)].sort());
    });

    it("reports each add-on's release status and whether NGINX Plus is on", async () => {
        const value = (k: string) => promiseOf(outputs[k] as pulumi.Output<unknown>);
        for (const k of ["ingress_controller_status", "cert_manager_status", "logstore_status", "log_agent_status", "prometheus_status", "statsd_status", "observability_status"]) {
            expect(await value(k), k).toBe("deployed");
        }
        expect(await value("nginx_plus")).toBe(false);
    });
});

/** One way of running the platform: the infrastructure type, the ingress Service, a registry, an image build. */
interface Mode {
    readonly name: string;
    readonly infra: "aws" | "digitalocean" | "linode" | "kubeconfig";
    readonly serviceType: "LoadBalancer" | "NodePort";
    readonly registry: boolean;
    readonly build: boolean;
    readonly raw: () => RawConfig;
}

const TOKENS = { secrets: { "digitalocean:token": "t", "linode:token": "t" } };
const REGISTRY = { "mara:registryServer": "registry.example.com", "mara:registryRepository": "platform/nginx-ingress", "mara:registryUsername": "robot", "mara:registryPassword": "registry-password-1" };
const with_ = (name: string, values: Record<string, string>, secret: string[] = []) => () => {
    const raw = fixture(name, TOKENS);
    return { ...raw, values: { ...raw.values, ...values }, secretKeys: new Set([...raw.secretKeys, ...secret]) };
};
const MODES: Mode[] = [
    { name: "AWS, load balancer", infra: "aws", serviceType: "LoadBalancer", registry: true, build: false, raw: () => fixture("canonical-aws") },
    { name: "AWS, NodePort", infra: "aws", serviceType: "NodePort", registry: true, build: false, raw: with_("canonical-aws", { "mara:ingressServiceType": "NodePort", "mara:fqdn": "nodes.example.org" }) },
    { name: "AWS, image built from source", infra: "aws", serviceType: "LoadBalancer", registry: true, build: true, raw: with_("canonical-aws", { "mara:ingressImageOrigin": "source" }) },
    { name: "DigitalOcean, load balancer", infra: "digitalocean", serviceType: "LoadBalancer", registry: true, build: false, raw: () => fixture("mara-do", TOKENS) },
    { name: "Linode, load balancer, no registry", infra: "linode", serviceType: "LoadBalancer", registry: false, build: false, raw: () => fixture("mara-lke", TOKENS) },
    { name: "Linode, NodePort, own registry", infra: "linode", serviceType: "NodePort", registry: true, build: false, raw: with_("mara-lke", { ...REGISTRY, "mara:ingressServiceType": "NodePort" }, ["mara:registryPassword"]) },
    { name: "existing cluster, load balancer", infra: "kubeconfig", serviceType: "LoadBalancer", registry: false, build: false, raw: () => fixture("mara-kubeconfig") },
    { name: "existing cluster, NodePort", infra: "kubeconfig", serviceType: "NodePort", registry: false, build: false, raw: with_("mara-kubeconfig", { "mara:ingressServiceType": "NodePort" }) },
];

/**
 * When each output of docs/deploy.md's "Stack outputs" table exists, as its row says: every other output exists in
 * every mode (with Pulumi delivering the platform). An output whose value is undefined is no output at all: Pulumi
 * leaves it out of the stack, and `pulumi stack output <name>` fails.
 */
const WHEN: Record<string, (m: Mode) => boolean> = {
    ...Object.fromEntries(["vpc_id", "public_subnet_ids", "private_subnet_ids", "azs", "registry_id", "oidc_provider_arn"].map((o) => [o, (m: Mode) => m.infra === "aws"])),
    cluster_id: (m) => m.infra === "digitalocean" || m.infra === "linode",
    registry_name: (m) => m.infra === "digitalocean",
    repository_url: (m) => m.registry,
    kic_make_target: (m) => m.build,
    ...Object.fromEntries(["kic_image_repository", "kic_image_tag", "kic_image_digest", "kic_image_ref"].map((o) => [o, (m: Mode) => m.registry])),
};

describe("every documented output, in every ingress mode and on every infrastructure type", () => {
    const documented = () => table("## Stack outputs").flatMap((r) => codeNames(r[0]!));
    const runs = new Map<string, Record<string, unknown>>();

    beforeAll(async () => {
        for (const mode of MODES) {
            const run = await runProgram(mode.raw());
            expect(run.error, mode.name).toBeUndefined();
            // What the stack holds: each output resolved, as the engine would record it (undefined: left out).
            const resolved: Record<string, unknown> = {};
            for (const [k, v] of Object.entries(run.outputs!)) resolved[k] = pulumi.Output.isInstance(v) ? await promiseOf(v as pulumi.Output<unknown>) : v;
            runs.set(mode.name, resolved);
        }
    }, 240_000);

    it("says when an output exists for every output that does not always", () => {
        for (const o of Object.keys(WHEN)) expect(documented(), o).toContain(o);
    });

    it.each(MODES.map((m) => [m.name, m] as const))("%s: exactly the outputs the table promises, none of them empty where a value is promised", (_, mode) => {
        const outputs = runs.get(mode.name)!;
        const present = Object.keys(outputs).filter((k) => outputs[k] !== undefined && outputs[k] !== null).sort();
        const promised = documented().filter((o) => (WHEN[o] ?? (() => true))(mode)).sort();
        expect(present).toEqual(promised);
    });

    it("lb_ingress_ip is the load balancer's IP where the cloud gives one, and empty (but there) everywhere else", () => {
        for (const mode of MODES) {
            const ip = runs.get(mode.name)!.lb_ingress_ip;
            const expected = mode.serviceType === "LoadBalancer" && mode.infra !== "aws" ? "203.0.113.10" : "";
            expect(ip, mode.name).toBe(expected);
        }
    });

    it("lb_ingress_hostname is the name the application is reached on: mara:fqdn, or the AWS load balancer's own", () => {
        const hostname = (name: string) => runs.get(name)!.lb_ingress_hostname;
        expect(hostname("AWS, load balancer")).toBe("a1b2c3-123.elb.us-east-1.amazonaws.com");
        expect(hostname("AWS, NodePort")).toBe("nodes.example.org");
        expect(hostname("existing cluster, NodePort")).toBe("mara.lab.example.org");
        expect(hostname("Linode, NodePort, own registry")).toBe("mara.example.net");
    });

    it.each([
        ["install", ["argocd_namespace", "argocd_application", "argocd_version", "argocd_status"]],
        ["external", ["argocd_cluster_secret", "argocd_root_application"]],
    ])("with GitOps delivery (Argo CD %s): the infrastructure's and the image's outputs stay, the delivery's come", async (argoCd, delivery) => {
        const gitops = { "mara:delivery": "gitops", "mara:gitopsArgoCd": argoCd, "mara:gitopsRepoUrl": "https://git.example.com/platform.git", "mara:gitopsPath": "deploy/lab" };
        const run = await runProgram(with_("mara-kubeconfig", gitops)());
        expect(run.error).toBeUndefined();
        const present: string[] = [];
        for (const [k, v] of Object.entries(run.outputs!)) if ((pulumi.Output.isInstance(v) ? await promiseOf(v as pulumi.Output<unknown>) : v) !== undefined) present.push(k);
        const stays = ["infra_type", "cluster_name", "kubeconfig", "kic_image_origin", "kic_image_source", "kic_image"];
        expect(present.sort()).toEqual([...stays, "delivery", "gitops_source", ...delivery].sort());
        const section = DEPLOY.slice(DEPLOY.indexOf("With `mara:delivery: gitops`"), DEPLOY.indexOf("Only `kubeconfig`"));
        const documentedHere = section.split("\n").filter((l) => l.startsWith("| `")).flatMap((l) => codeNames(l.split("|")[1]!));
        expect(documentedHere).toEqual(expect.arrayContaining(["delivery", "gitops_source", ...delivery]));
    }, 60_000);
});
