/**
 * The program's config as the Pulumi CLI delivers it. `pulumi up` passes every `config:` default in Pulumi.yaml
 * as if the stack set it, so a key with a project default is never "unset" in a real run. For every infra
 * fixture, the program must behave the same whether or not those defaults are merged in: same resources, same
 * inputs, same warnings, same errors. A difference means a default in Pulumi.yaml changes what `pulumi up` does.
 */
import * as fs from "fs";
import { inspect } from "util";
import { describe, expect, it } from "vitest";
import { applyProjectConfig, formatProblem, parseStackFile, ProjectConfigError, RawConfig, validateConfig } from "../../config";
import { configDeclarations } from "../../tools/pulumiYaml";
import { fixture, FIXTURES, PULUMI_YAML, stackFile } from "../support/config";
import { find, unwrapSecrets } from "../support/mocks";
import { ProgramRun, runProgram } from "../support/program";

const INFRA_FIXTURES = fs
    .readdirSync(FIXTURES)
    .map((f) => /^Pulumi\.(.+)\.yaml$/.exec(f)?.[1])
    .filter((f): f is string => f !== undefined);
const SECRETS = { "mara:grafanaAdminPassword": "grafana-pw", "mara:siriusAccountsPassword": "accounts-pw", "digitalocean:token": "do-token", "linode:token": "linode-token", "sirius:accounts_pwd": "accounts-pw", "linode:harbor_password": "harbor-pw" };

/** Mock inputs with live resource objects (remote components' inputs hold them) replaced by their type and name. */
function comparable(value: unknown): unknown {
    if (Array.isArray(value)) return value.map(comparable);
    if (value && typeof value === "object") {
        const v = value as Record<string, unknown>;
        if (v.__pulumiResource) return `<${String(v.__pulumiType)}::${String(v.__name)}>`;
        return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, comparable(x)]));
    }
    return value;
}

/** What a run did, in a form two runs can be compared by. */
function behaviour(run: ProgramRun) {
    return {
        error: run.error === undefined ? undefined : run.error instanceof Error ? String(run.error) : inspect(run.error),
        warnings: run.warnings,
        // Sorted: the order in which the SDK's asynchronous registrations reach the engine is not behaviour.
        resources: [...run.registrations].sort((a, b) => a.urn!.localeCompare(b.urn!)).map((r) => ({
            type: r.type,
            name: r.name,
            urn: r.urn,
            parent: r.parent,
            provider: r.provider,
            dependencies: [...r.dependencies].sort(),
            inputs: comparable(unwrapSecrets(r.inputs)),
        })),
    };
}

describe("config as the Pulumi CLI delivers it (Pulumi.yaml defaults merged)", () => {
    it("covers every fixture stack file", () => {
        expect(INFRA_FIXTURES.sort()).toEqual(["canonical-aws", "mara-aws", "mara-do", "mara-kubeconfig", "mara-lke", "minimal-aws"]);
    });

    for (const name of INFRA_FIXTURES) {
        it(`${name}: the program does the same with and without the project defaults`, async () => {
            const bare = await runProgram(fixture(name, { secrets: SECRETS, projectDefaults: false }));
            const merged = await runProgram(fixture(name, { secrets: SECRETS }));
            expect(merged.registrations.length).toBeGreaterThan(20);
            expect(behaviour(merged)).toEqual(behaviour(bare));
        }, 120_000);
    }

    it("MARA's kic-helm:nginx_repository and kic-helm:nginx_tag still choose the image when mara:ingressImageName holds its default", async () => {
        const text = fs
            .readFileSync(`${FIXTURES}/Pulumi.mara-kubeconfig.yaml`, "utf8")
            .replace("kic-helm:nginx_repository: nginx/nginx-ingress", "kic-helm:nginx_repository: registry.example.com/mirror/nginx-ingress")
            .replace("kic-helm:nginx_tag: 5.5.4", "kic-helm:nginx_tag: 5.5.3");
        const run = await runProgram(stackFile(text));
        expect(run.error).toBeUndefined();
        const release = find(run.registrations, "kubernetes:helm.sh/v3:Release", "platform-ingress-controller-release");
        expect((unwrapSecrets(release.inputs!.values) as { controller: { image: unknown } }).controller.image).toMatchObject({
            repository: "registry.example.com/mirror/nginx-ingress",
            tag: "5.5.3",
        });
        expect(run.warnings.join("\n")).not.toContain("is ignored because");
    }, 120_000);

    it("a Linode stack that sets no Harbor key draws no warning about Harbor keys", async () => {
        const text = fs
            .readFileSync(`${FIXTURES}/Pulumi.mara-lke.yaml`, "utf8")
            .replace(/ {2}linode:harbor_password:\n {4}secure: \S+\n/, "")
            .replace(/ {2}linode:soa_email: \S+\n/, "");
        const run = await runProgram(stackFile(text, { secrets: SECRETS }));
        expect(run.error).toBeUndefined();
        expect(run.warnings.join("\n")).not.toMatch(/harbor/i);
    }, 120_000);
});

describe("applyProjectConfig: the CLI's merge of Pulumi.yaml config", () => {
    const PROJECT = [
        "name: mara",
        "config:",
        "  pulumi:disable-default-providers: [aws, kubernetes]",
        "  aws:region: us-west-2",
        "  count: 3",
        "  eksMinSize: { type: integer, default: 3 }",
        "  flag: { type: boolean, default: false }",
        "  version: { type: string, default: '1.35' }",
        "  token: { type: string, secret: true, default: x }",
        "  zones: { type: array, items: { type: string }, default: [a, b] }",
    ].join("\n");
    const raw = (text: string): RawConfig => parseStackFile(text, { stack: "dev" });

    it("adds defaults and namespaced values as the CLI's text: %v for scalars, compact JSON for lists", () => {
        expect(applyProjectConfig(raw("config: {}\n"), PROJECT).values).toEqual({
            "pulumi:disable-default-providers": '["aws","kubernetes"]',
            "aws:region": "us-west-2",
            "mara:count": "3",
            "mara:eksMinSize": "3",
            "mara:flag": "false",
            "mara:version": "1.35",
            "mara:token": "x",
            "mara:zones": '["a","b"]',
        });
    });

    it("keeps what the stack sets", () => {
        const merged = applyProjectConfig(raw("config:\n  aws:region: eu-west-1\n  mara:eksMinSize: 5\n"), PROJECT);
        expect(merged.values["aws:region"]).toBe("eu-west-1");
        expect(merged.values["mara:eksMinSize"]).toBe("5");
    });

    it("refuses what the CLI refuses, in the CLI's words", () => {
        expect(() => applyProjectConfig(raw("config:\n  mara:eksMinSize: three\n"), PROJECT)).toThrow(
            new ProjectConfigError("Stack 'dev' with configuration key 'eksMinSize' must be of type 'integer'"),
        );
        expect(() => applyProjectConfig(raw("config:\n  mara:flag: yes\n"), PROJECT)).toThrow("Stack 'dev' with configuration key 'flag' must be of type 'boolean'");
        expect(() => applyProjectConfig(raw("config:\n  mara:zones: a\n"), PROJECT)).toThrow("Stack 'dev' with configuration key 'zones' must be of type 'array<string>'");
        expect(() => applyProjectConfig(raw("config:\n  mara:token: plain\n"), PROJECT)).toThrow("Stack 'dev' with configuration key 'token' must be encrypted as it's secret");
        expect(() => applyProjectConfig(raw("config: {}\n"), "name: mara\nconfig:\n  a: { type: string }\n  b: { type: string }\n")).toThrow(
            "Stack 'dev' is missing configuration values 'a' and 'b'",
        );
        // Integers may carry a sign, as Go's strconv.Atoi allows; booleans are exactly true or false.
        expect(applyProjectConfig(raw("config:\n  mara:eksMinSize: '+4'\n  mara:flag: 'true'\n"), PROJECT).values["mara:eksMinSize"]).toBe("+4");
    });

    it("the project's own Pulumi.yaml accepts every fixture", () => {
        for (const name of INFRA_FIXTURES) expect(() => applyProjectConfig(fixture(name, { projectDefaults: false }), fs.readFileSync(PULUMI_YAML, "utf8")), name).not.toThrow();
    });
});

describe("what the Pulumi CLI refuses, validation refuses too (mara validate agrees with pulumi up)", () => {
    const project = fs.readFileSync(PULUMI_YAML, "utf8");
    const typed = Object.entries(configDeclarations()).filter(([, d]) => d.type === "boolean" || d.type === "integer");
    const samples: Record<string, string[]> = { boolean: ["yes", "True", "1", " true"], integer: [" 3", "3.0", "0x10"] };

    it("covers the declared boolean and integer keys", () => {
        expect(typed.length).toBeGreaterThan(10);
    });

    for (const [name, decl] of typed) {
        it(`mara:${name} (${decl.type})`, () => {
            for (const bad of samples[decl.type]!) {
                const raw = parseStackFile(`config:\n  kubernetes:infra_type: aws\n  aws:region: us-east-1\n  mara:${name}: ${JSON.stringify(bad)}\n`, { stack: "dev" });
                expect(() => applyProjectConfig(raw, project), bad).toThrow(`Stack 'dev' with configuration key '${name}' must be of type '${decl.type}'`);
                const problems = validateConfig(raw).problems.filter((p) => p.key === `mara:${name}`);
                expect(problems.length, `${name} = ${JSON.stringify(bad)} passes validation but the CLI refuses it`).toBe(1);
            }
        });
    }

    it("says why and how to fix it", () => {
        const raw = parseStackFile("config:\n  kubernetes:infra_type: aws\n  aws:region: us-east-1\n  mara:ingressAlwaysRebuild: yes\n", { stack: "dev" });
        expect(validateConfig(raw).problems.map(formatProblem)).toEqual([
            expect.stringContaining("mara:ingressAlwaysRebuild"),
        ]);
        const [p] = validateConfig(raw).problems;
        expect(p).toMatchObject({
            key: "mara:ingressAlwaysRebuild",
            value: "yes",
            problem: "is refused by the Pulumi CLI before the program starts, because Pulumi.yaml declares mara:ingressAlwaysRebuild as a boolean",
            allowed: "exactly true or false",
            fix: "pulumi config set mara:ingressAlwaysRebuild true",
        });
    });

    it("MARA's own keys keep their lenient spellings (the CLI does not check keys Pulumi.yaml does not declare)", () => {
        const raw = parseStackFile("config:\n  kubernetes:infra_type: aws\n  aws:region: us-east-1\n  kic:always_rebuild: yes\n  eks:min_size: ' 3'\n", { stack: "dev" });
        expect(() => applyProjectConfig(raw, project)).not.toThrow();
        expect(validateConfig(raw).problems).toEqual([]);
    });
});
