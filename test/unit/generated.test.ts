/** The files generated from the key table must match it; run `npm run gen` after changing config/keys.ts. */
import * as fs from "fs";
import * as path from "path";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { CHARTS } from "../../contracts";
import { KEYS, KeySpec, parseStackFile, validateConfig } from "../../config";
import { CONFIGURATION_PAGE, renderConfigReference } from "../../tools/configReference";
import { renderPulumiYaml } from "../../tools/pulumiYaml";
import { renderStackExample } from "../../tools/stackExample";
import { renderRegions, sdkRegions } from "../../tools/regions";
import { AWS_REGIONS, DIGITALOCEAN_REGIONS } from "../../config/regions.generated";
import { DROPLET_SIZES, EC2_INSTANCE_FAMILIES } from "../../config/nodeSizes.generated";
import { renderNodeSizes, sdkEnum } from "../../tools/nodeSizes";

const ROOT = path.join(__dirname, "..", "..");
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");

describe("generated files", () => {
    it("Pulumi.yaml is up to date", () => {
        expect(read("Pulumi.yaml"), "run `npm run gen`").toBe(renderPulumiYaml());
    });

    it("Pulumi.dev.yaml.example is up to date", () => {
        expect(read("Pulumi.dev.yaml.example"), "run `npm run gen`").toBe(renderStackExample());
    });

    it("config/regions.generated.ts holds the region enums of the installed provider SDKs", () => {
        expect(read("config/regions.generated.ts"), "run `npm run gen`").toBe(renderRegions());
        // The copy is of the SDKs' own lists, not a hand-made one.
        expect(AWS_REGIONS).toEqual(expect.arrayContaining(["us-east-1", "eu-west-1", "ap-southeast-2"]));
        expect(DIGITALOCEAN_REGIONS).toEqual(sdkRegions("@pulumi/digitalocean").regions);
    });

    it("config/nodeSizes.generated.ts holds the node-size enums of the installed provider SDKs", () => {
        expect(read("config/nodeSizes.generated.ts"), "run `npm run gen`").toBe(renderNodeSizes());
        // The copy is of the SDKs' own lists, every entry of them, not a hand-made one.
        const ec2 = sdkEnum("@pulumi/aws", "types/enums/ec2", "InstanceType").values;
        expect(Object.entries(EC2_INSTANCE_FAMILIES).flatMap(([f, sizes]) => sizes.map((s) => `${f}.${s}`)).sort()).toEqual(ec2);
        expect(EC2_INSTANCE_FAMILIES.t3).toContain("large");
        expect(DROPLET_SIZES).toEqual(sdkEnum("@pulumi/digitalocean", "types/enums", "DropletSlug").values);
    });

    it("the configuration reference in docs/configuration.md is up to date", () => {
        expect(read(CONFIGURATION_PAGE), "run `npm run gen`").toContain(renderConfigReference());
    });

    it("describes each key by what it takes: no prefix range of one, and the ACME server is not a Helm repository", () => {
        const reference = renderConfigReference();
        expect(reference).not.toContain("from /16 to /16");
        const acme = reference.split("\n").find((l) => l.startsWith("| `mara:acmeServer` |"))!;
        expect(acme).toContain("an https:// ACME directory URL");
        expect(acme).not.toMatch(/Helm|oci:\/\//);
        // And the value types behind the words: an ACME directory is https, a Helm chart source is not.
        expect(KEYS.acmeServer.type.parse("oci://ghcr.io/x")).toEqual({ ok: false, reason: 'uses the scheme "oci:", and this URL must be https://' });
        expect(KEYS.acmeServer.type.parse("http://acme.example.com/directory").ok).toBe(false);
        expect(KEYS.vpcCidr.type.allowed).toBe("a /16 IPv4 CIDR block inside a private range (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16), e.g. 10.100.0.0/16");
    });

    it("the reference names every key, its MARA keys and its default", () => {
        const reference = renderConfigReference();
        for (const spec of Object.values(KEYS) as KeySpec<unknown>[]) {
            const row = reference.split("\n").find((l) => l.startsWith(`| \`${spec.key}\` |`));
            expect(row, spec.key).toBeDefined();
            for (const l of spec.legacy) expect(row, `${spec.key}: ${l.key}`).toContain(`\`${l.key}`);
            if (spec.default !== undefined) expect(row, spec.key).toContain(`\`${spec.type.render(spec.default)}\``);
        }
    });
});

describe("Pulumi.yaml", () => {
    const project = parse(read("Pulumi.yaml"));

    it("is a TypeScript nodejs project named mara, loaded by Sucrase's hook rather than Pulumi's ts-node", () => {
        expect(project.name).toBe("mara");
        expect(project.runtime).toEqual({ name: "nodejs", options: { typescript: false, nodeargs: "--require sucrase/register/ts", packagemanager: "npm" } });
        // The hook nodeargs names must be installed for `pulumi up` (a runtime dependency, not a dev one).
        const manifest = JSON.parse(read("package.json"));
        expect(Object.keys(manifest.dependencies)).toContain("sucrase");
        expect(require.resolve("sucrase/register/ts", { paths: [ROOT] })).toMatch(/node_modules/);
    });

    it("disables the default providers of every package whose configuration matters", () => {
        expect(project.config["pulumi:disable-default-providers"]).toEqual(["aws", "kubernetes", "linode", "digitalocean", "docker"]);
    });

    it("declares each defaulted mara: key with the code's type and default, and no key without a default", () => {
        const specs = (Object.values(KEYS) as KeySpec<unknown>[]).filter((s) => s.key.startsWith("mara:"));
        for (const spec of specs) {
            const decl = project.config[spec.key.slice("mara:".length)];
            if (spec.default === undefined) {
                // A declared key without a default would be required by the Pulumi CLI.
                expect(decl, spec.key).toBeUndefined();
                continue;
            }
            expect(decl, spec.key).toMatchObject({ type: spec.type.pulumiType, default: spec.default });
            expect(decl.description.length, spec.key).toBeGreaterThan(10);
        }
    });

    it("declares chart defaults equal to the catalogue", () => {
        for (const [id, chart] of Object.entries(CHARTS)) {
            expect(project.config[`${id}ChartVersion`].default).toBe(chart.version);
            expect(project.config[`${id}HelmRepoUrl`].default).toBe(chart.repositoryUrl);
        }
    });

    it("keeps ts-node transpile-only where it still runs (npm run bench's comparison with Pulumi's default loader)", () => {
        expect(JSON.parse(read("tsconfig.json"))["ts-node"]).toEqual({ transpileOnly: true });
    });
});

describe("Pulumi.dev.yaml.example", () => {
    it("is a valid AWS stack file as it stands", () => {
        const result = validateConfig(parseStackFile(read("Pulumi.dev.yaml.example")));
        expect(result.problems).toEqual([]);
        expect(result.config?.infra.type).toBe("aws");
    });

    it("stays valid with every commented key switched on", () => {
        const text = read("Pulumi.dev.yaml.example")
            .split("\n")
            .filter((l) => !/^\s+#\s+secure:/.test(l))
            .map((l) => l.replace(/^ {2}# (mara:\w+|aws:\w+): (?!$)/, "  $1: "))
            .join("\n");
        const raw = parseStackFile(text);
        expect(Object.keys(raw.values).length).toBeGreaterThan(40);
        // The example's AWS section must hold together; keys for other clouds are inert on AWS.
        expect(validateConfig(raw).problems).toEqual([]);
    });

    it("lists every key", () => {
        const text = read("Pulumi.dev.yaml.example");
        for (const spec of Object.values(KEYS) as KeySpec<unknown>[]) expect(text, spec.key).toContain(`${spec.key}:`);
    });
});
