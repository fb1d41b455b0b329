/**
 * MARA's stack outputs, back: every output a MARA project exported has a row in the parity table of
 * docs/deploy.md, every output that table points to is one the program really exports, and every output the
 * program exports is described there. The release statuses and the NGINX Plus flag are checked for value.
 */
import * as fs from "fs";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
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
