/**
 * The offline commands end to end, in-process: `mara plan` runs the real program (index.ts) under
 * Pulumi mocks from MARA-format and minimal stack files; `mara validate` and `mara list-providers` need
 * nothing at all. Bad files must fail with exit code 1 and every problem listed.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Run, runMara } from "./support/io";

const FIXTURES = path.join(__dirname, "..", "fixtures");
const fixture = (name: string) => path.join(FIXTURES, `Pulumi.${name}.yaml`);
const made: string[] = [];
const tmp = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mara-plan-"));
    made.push(dir);
    return dir;
};
afterAll(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** The eight platform add-ons, in the order the tree shows them. */
const ADDONS = ["Secrets", "CertManager", "Prometheus", "IngressControllerImage", "IngressController", "Logstore", "Observability", "LogAgent"];

describe("mara plan on MARA's own stack file format", () => {
    let r: Run;
    let dir: string;
    beforeAll(async () => {
        dir = tmp();
        r = await runMara(["plan", "--config-file", fixture("mara-aws"), "--mermaid", "graph/plan.mmd", "--dot", "plan.dot"], { cwd: dir });
    }, 300_000);

    it("succeeds and says it ran offline, as a preview", () => {
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toContain(`Plan for stack "mara-aws" from ${fixture("mara-aws")}`);
        expect(r.stdout).toContain("as a first `pulumi preview`; no CLI, cloud or credentials were used");
    });

    it("prints the whole AWS component tree in dependency order", () => {
        const tree = r.stdout.split("\n").filter((l) => /\(mara:[a-z]+:\w+, /.test(l));
        const names = tree.map((l) => /(?:\d+\. )(\w+)/.exec(l)![1]);
        expect(names).toEqual(["Vpc", "Ecr", "Eks", "ClusterDrain", "Kubeconfig", "Platform", ...ADDONS, "Application"]);
        expect(r.stdout).toContain("2. Eks  (mara:infra:Eks, 10 resources)  after Vpc");
        // The drain sits between the cluster and everything in it, so destroy reaches it last of all cluster objects.
        expect(r.stdout).toContain("3. ClusterDrain: drain  (mara:infra:ClusterDrain, 1 resource)  after Vpc, Eks");
        expect(r.stdout).toContain("4. Kubeconfig  (mara:infra:Kubeconfig, 1 resource)  after Eks, ClusterDrain: drain");
        expect(r.stdout).toMatch(/5\. Platform {2}\(mara:platform:Platform, \d+ resources in all\) {2}after Ecr, Kubeconfig/);
        // Pull, tag and push.
        // Its child name is the one deployed stacks hold (kic-image), so the label names it.
        expect(r.stdout).toContain("├─ 1. IngressControllerImage: kic-image  (mara:registry:IngressControllerImage, 3 resources)  after Ecr");
        // The controller is deployed once its image is in the registry, not before.
        expect(r.stdout).toMatch(/├─ 2\. IngressController .* after IngressControllerImage/);
        expect(r.stdout).toMatch(/LogAgent .* after Secrets, Logstore, Kubeconfig/);
        expect(r.stdout).toMatch(/6\. Application: bank-of-sirius {2}\(mara:app:Application, \d+ resources\) {2}after Kubeconfig, Platform/);
        // Nested under Platform: the eight add-ons are indented.
        for (const addon of ADDONS) expect(r.stdout).toMatch(new RegExp(`^   [├└]─ \\d\\. ${addon}[: ]`, "m"));
    });

    it("counts resources per type", () => {
        expect(r.stdout).toMatch(/^ *9 {2}kubernetes:helm\.sh\/v3:Release$/m);
        expect(r.stdout).toMatch(/^ *1 {2}eks:index:Cluster$/m);
        expect(r.stdout).toMatch(/^ *2 {2}aws:ec2\/natGateway:NatGateway$/m);
        expect(r.stdout).toMatch(/^ *\d+ {2}total$/m);
        expect(r.stdout).toContain("eks:index:Cluster, eks:index:ManagedNodeGroup: components implemented by their provider package");
    });

    it("prints the validation warnings once", () => {
        expect(r.stderr).toContain("warning: eks:k8s_version = 1.21 is MARA's 2022 pin of the EKS Kubernetes version, which cannot be deployed today; 1.35 is used instead");
        expect(r.stderr).toContain("warning: prometheus:adminpass is stored in plain text");
        expect(r.stderr.split("eks:k8s_version = 1.21").length).toBe(2);
    });

    it("writes the dependency graph as Mermaid and DOT", () => {
        const mermaid = fs.readFileSync(path.join(dir, "graph", "plan.mmd"), "utf8");
        expect(mermaid.startsWith("flowchart TD\n")).toBe(true);
        expect(mermaid).toContain('subgraph platform["Platform"]');
        for (const edge of ["vpc --> eks", "eks --> drain", "drain --> kubeconfig", "ecr --> kic_image", "kubeconfig --> cert_manager", "cert_manager --> observability", "logstore --> log_agent", "prometheus --> bank_of_sirius"]) {
            expect(mermaid).toContain(`    ${edge}\n`);
        }
        // Implied edges are left out: the app needs the cluster, but through the add-ons.
        expect(mermaid).not.toContain("kubeconfig --> bank_of_sirius");
        const dot = fs.readFileSync(path.join(dir, "plan.dot"), "utf8");
        expect(dot).toContain('subgraph "cluster_platform" {');
        expect(dot).toContain('"vpc" -> "eks";');
        expect(r.stderr).toContain("Wrote the dependency graph (Mermaid) to graph/plan.mmd");
    });
});

describe("mara plan on other files", () => {
    it("plans the minimal stack file, found with --stack in the working directory", async () => {
        const dir = tmp();
        fs.copyFileSync(fixture("minimal-aws"), path.join(dir, "Pulumi.dev.yaml"));
        const r = await runMara(["plan", "--stack", "dev", "--mermaid", "plan.mmd"], { cwd: dir });
        expect(r.code, r.stderr).toBe(0);
        expect(r.stderr).toBe("Wrote the dependency graph (Mermaid) to plan.mmd\n");
        for (const c of ["Vpc", "Eks", "Ecr", "Kubeconfig", "Platform", ...ADDONS, "Application"]) expect(r.stdout).toMatch(new RegExp(`\\d\\. ${c}[: ]`));
        // The same stack file gives the same graph as the one committed in docs/.
        expect(fs.readFileSync(path.join(dir, "plan.mmd"), "utf8")).toBe(fs.readFileSync(path.join(__dirname, "..", "..", "docs", "plan.mmd"), "utf8"));
    }, 120_000);

    it("uses the directory's only stack file when none is named, and refuses to guess between several", async () => {
        const dir = tmp();
        fs.copyFileSync(fixture("minimal-aws"), path.join(dir, "Pulumi.one.yaml"));
        expect((await runMara(["validate"], { cwd: dir })).stdout).toContain('configuration of stack "one" is valid');
        fs.copyFileSync(fixture("minimal-aws"), path.join(dir, "Pulumi.two.yaml"));
        const r = await runMara(["plan"], { cwd: dir });
        expect(r.code).toBe(2);
        expect(r.stderr).toContain("several stack files here (Pulumi.one.yaml, Pulumi.two.yaml); pick one with --stack NAME or --config-file PATH");
    });

    it("fails with exit code 1 and every problem listed for MARA's own example values", async () => {
        const dir = tmp();
        const text = fs
            .readFileSync(fixture("mara-aws"), "utf8")
            .replace("    - us-east-1a\n    - us-east-1b", "    - us-west-1a\n    - us-west-1b")
            .replace("prometheus:helm_repo_url: https://", "prometheus:helm_repo_url: https://https://");
        fs.writeFileSync(path.join(dir, "Pulumi.bad.yaml"), text);
        for (const cmd of ["plan", "validate"]) {
            const r = await runMara([cmd, "--stack", "bad"], { cwd: dir });
            expect(r.code, cmd).toBe(1);
            expect(r.stderr).toContain(`error: 3 configuration problems in ${path.join(dir, "Pulumi.bad.yaml")}:`);
            expect(r.stderr).toContain('1. prometheus:helm_repo_url = "https://https://prometheus-community.github.io/helm-charts": repeats the scheme.');
            expect(r.stderr).toContain('2. vpc:azs = "[\\"us-west-1a\\",\\"us-west-1b\\"]": lists "us-west-1a", which is in region us-west-1, not us-east-1.');
            expect(r.stderr).toContain('3. vpc:azs = "[\\"us-west-1a\\",\\"us-west-1b\\"]": lists "us-west-1b"');
            expect(r.stdout).toBe("");
        }
    });

    it("lists a missing infra type and a bad number together", async () => {
        const file = path.join(tmp(), "Pulumi.x.yaml");
        fs.writeFileSync(file, "config:\n  eks:min_size: three\n  mara:nodeCount: 3\n");
        const r = await runMara(["plan", "--config-file", file]);
        expect(r.code).toBe(1);
        expect(r.stderr).toContain('eks:min_size = "three": is not a number. Allowed: a whole number from 0 to 450 nodes.');
        expect(r.stderr).toContain("kubernetes:infra_type: is not set.");
        expect(r.stderr).toContain("mara:nodeCount: is not a setting this program knows.");
    });

    it("reports a file that is not a stack file, or does not exist", async () => {
        const file = path.join(tmp(), "Pulumi.y.yaml");
        fs.writeFileSync(file, "config: [a, b\n");
        const broken = await runMara(["plan", "--config-file", file]);
        expect(broken.code).toBe(1);
        expect(broken.stderr).toContain(`mara: ${file} is not a readable stack file:`);
        const missing = await runMara(["validate", "--config-file", "/nonexistent/Pulumi.z.yaml"]);
        expect(missing.code).toBe(2);
        expect(missing.stderr).toContain("stack file /nonexistent/Pulumi.z.yaml does not exist");
    });

    it("replaces encrypted values with placeholders instead of failing", async () => {
        const file = path.join(tmp(), "Pulumi.s.yaml");
        fs.writeFileSync(file, "encryptionsalt: v1:abc\nconfig:\n  kubernetes:infra_type: aws\n  aws:region: us-east-1\n  mara:grafanaAdminPassword:\n    secure: v1:AAECAwQFBgcICQoL:AAECAwQFBgcICQoLDA0ODxAREhM=\n");
        const r = await runMara(["plan", "--config-file", file]);
        expect(r.code, r.stderr).toBe(0);
        expect(r.stderr).not.toContain("plain text");
    }, 120_000);
});

describe("mara plan's outputs", () => {
    it("lists every Helm release with chart@version and every image with its tag, in text and as JSON", async () => {
        const text = await runMara(["plan", "-c", fixture("mara-kubeconfig")]);
        expect(text.code, text.stderr).toBe(0);
        expect(text.stdout).toMatch(/^ {2}platform-cert-manager-release +cert-manager@v1\.21\.1 {2}\(namespace cert-manager, from https:\/\/charts\.jetstack\.io\)$/m);
        expect(text.stdout).toMatch(/^ {2}nginx\/nginx-ingress:5\.5\.4 {2}\(platform-ingress-controller-release\)$/m);
        expect(text.stdout).toMatch(/^ {2}docker\.elastic\.co\/elasticsearch\/elasticsearch:9\.5\.0 {2}\(platform-logstore-elasticsearch\)$/m);
        const json = await runMara(["plan", "-c", fixture("mara-kubeconfig"), "--json"]);
        expect(json.code, json.stderr).toBe(0);
        const plan = JSON.parse(json.stdout) as { stack: string; infraType: string; helmReleases: { resource: string; chart: string; version: string }[]; images: { image: string; usedBy: string[] }[]; components: { type: string }[] };
        expect(plan).toMatchObject({ stack: "mara-kubeconfig", infraType: "kubeconfig" });
        expect(plan.helmReleases).toHaveLength(9);
        expect(plan.helmReleases).toContainEqual(expect.objectContaining({ resource: "platform-prometheus-release", chart: "kube-prometheus-stack", version: "88.5.3", namespace: "prometheus" }));
        expect(plan.images.map((i) => i.image)).toContain("quay.io/prometheus/prometheus:v3.14.0-distroless");
        expect(plan.components.map((c) => c.type)).toContain("mara:platform:Platform");
        // Standard output holds the JSON alone, for a script to parse.
        expect(json.stdout.trim().startsWith("{")).toBe(true);
    }, 120_000);

    it("writes the graph to standard output with -, and refuses a directory or two outputs on standard output", async () => {
        const dir = tmp();
        const r = await runMara(["plan", "-c", fixture("minimal-aws"), "--mermaid", "-"], { cwd: dir });
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout.startsWith("flowchart TD\n")).toBe(true);
        expect(r.stdout).toBe(fs.readFileSync(path.join(__dirname, "..", "..", "docs", "plan.mmd"), "utf8"));
        expect(fs.readdirSync(dir)).toEqual([]);
        for (const target of [dir, `${dir}/`, "."]) {
            const bad = await runMara(["plan", "-c", fixture("minimal-aws"), "--mermaid", target], { cwd: dir });
            expect(bad.code, target).toBe(2);
            expect(bad.stderr).toContain(`mara: --mermaid ${target} is a directory; give a file name, such as ${path.join(target, "plan.mmd")}, or - for standard output`);
            expect(bad.stderr).not.toMatch(/\n\s+at /);
            // Refused before anything ran: no plan was printed.
            expect(bad.stdout).toBe("");
        }
        fs.writeFileSync(path.join(dir, "file"), "");
        const underFile = await runMara(["plan", "-c", fixture("minimal-aws"), "--dot", "file/plan.dot"], { cwd: dir });
        expect(underFile.code).toBe(2);
        expect(underFile.stderr).toContain(`mara: --dot file/plan.dot: ${path.join(dir, "file")} is a file, so file/plan.dot cannot be written`);
        const both = await runMara(["plan", "-c", fixture("minimal-aws"), "--mermaid", "-", "--json"], { cwd: dir });
        expect(both.code).toBe(2);
        expect(both.stderr).toContain("mara: only one of --mermaid, --json can write to standard output; give the others a file name");
    }, 120_000);
});

describe("--stack names a stack, not a path", () => {
    it.each(["../Pulumi.other", "a/../../x", "..", "dev/../../../etc/passwd", "a/b/c/d", "with space"])("refuses %j", async (stack) => {
        const dir = tmp();
        for (const cmd of ["validate", "plan", "outdated"]) {
            const r = await runMara([cmd, "--stack", stack], { cwd: dir });
            expect(r.code, cmd).toBe(2);
            expect(r.stderr).toContain(`mara: "${stack}" is not a stack name: use letters, digits, '-', '_' and '.' (optionally org/project/stack, each part at most 100 characters), without '..' or other paths`);
        }
    });

    it("reads org/project/stack from the stack's own file name, as the Pulumi CLI does", async () => {
        const dir = tmp();
        fs.copyFileSync(fixture("minimal-aws"), path.join(dir, "Pulumi.prod.yaml"));
        const r = await runMara(["validate", "--stack", "acme/mara/prod"], { cwd: dir });
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toContain(`${path.join(dir, "Pulumi.prod.yaml")}: configuration of stack "acme/mara/prod" is valid`);
    });
});

describe("stack-file YAML the CLI parses differently", () => {
    it("reports what the YAML parser warns about as a warning line with the line number, never as a Node warning", async () => {
        const file = path.join(tmp(), "Pulumi.tags.yaml");
        fs.writeFileSync(file, "config:\n  kubernetes:infra_type: aws\n  aws:region: us-east-1\n  eks:min_size: !!int 3\n");
        const nodeWarnings: string[] = [];
        const onWarning = (w: Error) => nodeWarnings.push(w.name);
        process.on("warning", onWarning);
        try {
            const r = await runMara(["validate", "-c", file]);
            expect(r.code, r.stderr).toBe(0);
            expect(r.stderr).toContain("warning: The stack file, line 4, column 17: Unresolved tag: tag:yaml.org,2002:int: the value is read as written.");
            await new Promise((resolve) => setTimeout(resolve, 20));
        } finally {
            process.off("warning", onWarning);
        }
        expect(nodeWarnings).toEqual([]);
    });
});

describe("typos in provider namespaces", () => {
    it("suggests the key the program reads, and names provider settings that do not apply", async () => {
        const file = path.join(tmp(), "Pulumi.typo.yaml");
        fs.writeFileSync(file, "config:\n  kubernetes:infra_type: aws\n  aws:region: us-east-1\n  aws:regoin: us-west-2\n  kubernetes:cluster_nmae: lab\n  digitalocean:tokne: x\n  aws:accessKey: AKIAEXAMPLE\n  kubernetes:namespace: apps\n  pulumi:tags: {}\n");
        const r = await runMara(["validate", "-c", file]);
        expect(r.code, r.stderr).toBe(0);
        expect(r.stderr).toContain("warning: aws:regoin is not a setting this program reads and is ignored; did you mean aws:region?");
        expect(r.stderr).toContain("warning: kubernetes:cluster_nmae is not a setting this program reads and is ignored; did you mean kubernetes:cluster_name?");
        expect(r.stderr).toContain("warning: digitalocean:tokne is not a setting this program reads and is ignored; did you mean digitalocean:token?");
        expect(r.stderr).toContain("warning: aws:accessKey is not read: this program builds its aws provider from aws:region and aws:profile (and the AWS_* environment variables), and default providers are disabled, so provider settings in the stack do not apply.");
        expect(r.stderr).toContain("warning: kubernetes:namespace is not read: this program builds its kubernetes provider from the cluster's kubeconfig");
        expect(r.stderr).not.toContain("pulumi:tags");
        expect(r.stderr).not.toContain("AKIAEXAMPLE");
    });
});

describe("mara validate", () => {
    it("accepts the MARA-format fixture with warnings, and the minimal one without", async () => {
        const mara = await runMara(["validate", "--config-file", fixture("mara-aws")]);
        expect(mara.code).toBe(0);
        expect(mara.stdout).toMatch(/configuration of stack "mara-aws" is valid with \d+ warnings \(infra type aws\)/);
        expect(mara.stderr).toContain('warning: Keys in the "eks" namespace belong to the eks provider');
        const minimal = await runMara(["validate", "-c", fixture("minimal-aws")]);
        expect(minimal).toEqual({ code: 0, stdout: `${fixture("minimal-aws")}: configuration of stack "minimal-aws" is valid (infra type aws).\n`, stderr: "" });
    });

    it("reads the region from the environment, as the program does", async () => {
        const file = path.join(tmp(), "Pulumi.e.yaml");
        fs.writeFileSync(file, "config:\n  kubernetes:infra_type: AWS\n");
        expect((await runMara(["validate", "-c", file])).stderr).toContain("aws:region: is not set.");
        expect((await runMara(["validate", "-c", file], { env: { AWS_REGION: "eu-west-1" } })).code).toBe(0);
    });
});

describe("mara list-providers", () => {
    it("lists each infra type with MARA's spelling and what it creates", async () => {
        const r = await runMara(["list-providers"]);
        expect(r.code).toBe(0);
        expect(r.stdout).toMatch(/^aws +MARA: AWS +Amazon EKS$/m);
        expect(r.stdout).toMatch(/^digitalocean +MARA: DO +DigitalOcean Kubernetes \(DOKS\)$/m);
        expect(r.stdout).toMatch(/^linode +MARA: LKE +Linode Kubernetes Engine \(LKE\)$/m);
        expect(r.stdout).toMatch(/^kubeconfig +MARA: kubeconfig +an existing cluster$/m);
        expect(r.stdout).toContain("creates:     a VPC");
    });
});

describe("the command line", () => {
    it("prints help and the version, and rejects unknown commands and options with exit code 2", async () => {
        expect((await runMara(["--help"])).stdout).toContain("Usage: mara [options] [command]");
        // The package's own version, as npm and the changelog have it.
        const { version } = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8")) as { version: string };
        expect(version).toMatch(/^\d+\.\d+\.\d+$/);
        expect((await runMara(["--version"])).stdout).toBe(`${version}\n`);
        const unknown = await runMara(["deploy"]);
        expect(unknown.code).toBe(2);
        expect(unknown.stderr).toContain("mara: unknown command 'deploy'");
        const option = await runMara(["plan", "--mermaid"]);
        expect(option.code).toBe(2);
        expect(option.stderr).toContain("option '--mermaid <file>' argument missing");
    });

    it("refuses an unknown command with exit code 2 even when it asks for help, naming the commands or the one meant", async () => {
        const all = "init, plan, render, validate, list-providers, outdated, doctor, up, preview, destroy, refresh, kubeconfig, open, verify";
        for (const argv of [["teleport"], ["teleport", "--help"], ["--help", "teleport"], ["-h", "teleport"], ["help", "teleport"]]) {
            expect(await runMara(argv), argv.join(" ")).toMatchObject({ code: 2, stdout: "", stderr: `mara: unknown command 'teleport'; the commands are ${all} (mara --help describes each)\n` });
        }
        expect(await runMara(["valdate", "--help"])).toMatchObject({ code: 2, stderr: "mara: unknown command 'valdate'; did you mean 'validate'? (mara --help lists the commands)\n" });
        // Aliases and the help command are commands.
        expect((await runMara(["down", "--help"])).code).toBe(0);
        expect((await runMara(["help", "plan"])).stdout).toContain("Usage: mara plan");
        expect((await runMara(["help"])).stdout).toContain("Usage: mara [options] [command]");
    });
});
