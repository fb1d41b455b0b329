/**
 * NGINX Plus end to end, as the whole program runs it: the JWT pulls the Plus image into the cluster's
 * registry (through the Docker provider's registryAuth, no `docker login`), the ECR token pushes it, and a Plus
 * source build mounts the repository certificate and key as BuildKit secrets. None of these credentials may
 * appear in plain text anywhere the program writes: registered inputs, stack outputs, warnings, `mara plan`.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runMara } from "../cli/support/io";
import { aws } from "../support/config";
import { find, isWrappedSecret, plainStrings, promiseOf, unwrapSecrets } from "../support/mocks";
import { ProgramRun, runProgram } from "../support/program";

const JWT = "eyJhbGciOiJSUzI1NiJ9.PLUS-LICENSE-JWT.signature";
const CERT = "-----BEGIN CERTIFICATE-----\nNGINX-REPO-CERT-CONTENT\n-----END CERTIFICATE-----\n";
const KEY = "-----BEGIN PRIVATE KEY-----\nNGINX-REPO-KEY-CONTENT\n-----END PRIVATE KEY-----\n";
/** The ECR push token the simulated cloud hands out (offline/simulatedCloud.ts). */
const ECR_TOKEN = "ecr-push-token";
const PLUS_IMAGE = "private-registry.nginx.com/nginx-ic/nginx-plus-ingress:5.5.4";
const CREDENTIALS = [JWT, CERT.split("\n")[1]!, KEY.split("\n")[1]!, ECR_TOKEN];

/** Every string a run left in plain text: registered inputs outside secret wrappers, non-secret outputs, warnings. */
async function plainText(run: ProgramRun): Promise<string[]> {
    const out = run.registrations.flatMap((r) => plainStrings(r.inputs));
    for (const value of Object.values(run.outputs ?? {})) {
        if (pulumi.Output.isInstance(value)) {
            if (await pulumi.isSecret(value as pulumi.Output<unknown>)) continue;
            out.push(JSON.stringify(await promiseOf(value as pulumi.Output<unknown>)) ?? "");
        } else out.push(JSON.stringify(value) ?? "");
    }
    return [...out, ...run.warnings];
}

let dir: string;
beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "mara-plus-"));
    fs.writeFileSync(path.join(dir, "nginx-repo.crt"), CERT);
    fs.writeFileSync(path.join(dir, "nginx-repo.key"), KEY);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("an NGINX Plus image mirrored into ECR", () => {
    let run: ProgramRun;
    beforeAll(async () => {
        run = await runProgram(aws({ "mara:nginxJwt": JWT, "mara:ingressImageName": PLUS_IMAGE, "mara:ingressEnablePlus": "true" }, { secret: ["mara:nginxJwt"] }));
        expect(run.error).toBeUndefined();
    }, 300_000);

    it("gives each registry its own credentials in the Docker provider: ECR's token to push, the JWT to pull from NGINX", () => {
        const auth = find(run.registrations, "pulumi:providers:docker", "docker").inputs!.registryAuth;
        expect(isWrappedSecret(auth)).toBe(true);
        expect(JSON.parse(unwrapSecrets(auth) as string)).toEqual([
            { address: "123456789012.dkr.ecr.us-east-1.amazonaws.com", username: "AWS", password: ECR_TOKEN },
            { address: "private-registry.nginx.com", username: JWT, password: "none" },
        ]);
    });

    it("pulls the Plus image and pushes it to ECR with that provider, and the chart runs the pushed digest", () => {
        const docker = find(run.registrations, "pulumi:providers:docker", "docker");
        const ref = (r: { provider: string }) => r.provider.split("::").slice(0, -1).join("::");
        const pull = find(run.registrations, "docker:index/remoteImage:RemoteImage", "platform-kic-image-pull");
        const push = find(run.registrations, "docker:index/registryImage:RegistryImage", "platform-kic-image-push");
        expect(pull.inputs!.name).toBe(PLUS_IMAGE);
        expect(push.inputs!.name).toBe("123456789012.dkr.ecr.us-east-1.amazonaws.com/ingress-controller-dev:5.5.4");
        expect([ref(pull), ref(push)]).toEqual([docker.urn, docker.urn]);
        const values = find(run.registrations, "kubernetes:helm.sh/v3:Release", "platform-ingress-controller-release").inputs!.values as { controller: { image: Record<string, string>; nginxplus: boolean } };
        expect(values.controller.image.digest).toBe(`sha256:${"ab".repeat(32)}`);
        expect(values.controller.nginxplus).toBe(true);
    });

    it("keeps the JWT and the ECR token out of every plain input, output and warning", async () => {
        const plain = await plainText(run);
        for (const secret of CREDENTIALS) expect(plain.filter((s) => s.includes(secret)), secret).toEqual([]);
    });

    it("gives the cluster the JWT only in Kubernetes Secrets (the license), never in the chart's values", () => {
        const license = find(run.registrations, "kubernetes:core/v1:Secret", "platform-ingress-controller-license");
        expect((unwrapSecrets(license.inputs!.stringData) as Record<string, string>)["license.jwt"]).toBe(JWT);
        expect(plainStrings(license.inputs)).not.toContain(JWT);
        const release = find(run.registrations, "kubernetes:helm.sh/v3:Release", "platform-ingress-controller-release");
        expect(JSON.stringify(unwrapSecrets(release.inputs))).not.toContain(JWT);
    });
});

describe("an NGINX Plus image built from source", () => {
    it("mounts the repository certificate and key from their files as BuildKit secrets: paths in the inputs, contents nowhere", async () => {
        const run = await runProgram(
            aws(
                {
                    "mara:nginxJwt": JWT,
                    "mara:ingressImageOrigin": "source",
                    "mara:ingressMakeTarget": "debian-image-plus",
                    "kic:nginx_plus": JSON.stringify({ "kic:cert_path": path.join(dir, "nginx-repo.crt"), "kic:key_path": path.join(dir, "nginx-repo.key") }),
                },
                { secret: ["mara:nginxJwt"] },
            ),
        );
        expect(run.error).toBeUndefined();
        const build = find(run.registrations, "docker:index/remoteImage:RemoteImage", "platform-kic-image-build").inputs!.build as Record<string, unknown>;
        expect(build.secrets).toEqual([
            { id: "nginx-repo.crt", src: path.join(dir, "nginx-repo.crt") },
            { id: "nginx-repo.key", src: path.join(dir, "nginx-repo.key") },
        ]);
        expect(build).toMatchObject({ remoteContext: "https://github.com/nginx/kubernetes-ingress.git#v5.5.4", target: "container", buildArgs: { BUILD_OS: "debian-plus", IC_VERSION: "5.5.4" } });
        const plain = await plainText(run);
        for (const secret of CREDENTIALS) expect(plain.filter((s) => s.includes(secret)), secret).toEqual([]);
        // Not even inside secret wrappers: the files are read by the Docker provider at build time, never by the program.
        const all = JSON.stringify(run.registrations.map((r) => unwrapSecrets(r.inputs)));
        expect(all).not.toContain("NGINX-REPO-CERT-CONTENT");
        expect(all).not.toContain("NGINX-REPO-KEY-CONTENT");
    }, 120_000);

    it("takes them from NGINX_REPO_CRT and NGINX_REPO_KEY by name when no files are configured", async () => {
        const run = await runProgram(aws({ "mara:ingressImageOrigin": "source", "mara:ingressMakeTarget": "alpine-image-plus" }, { env: { NGINX_REPO_CRT: CERT, NGINX_REPO_KEY: KEY } }));
        expect(run.error).toBeUndefined();
        const build = find(run.registrations, "docker:index/remoteImage:RemoteImage", "platform-kic-image-build").inputs!.build as Record<string, unknown>;
        expect(build.secrets).toEqual([
            { id: "nginx-repo.crt", env: "NGINX_REPO_CRT" },
            { id: "nginx-repo.key", env: "NGINX_REPO_KEY" },
        ]);
        const all = JSON.stringify(run.registrations.map((r) => unwrapSecrets(r.inputs))) + (await plainText(run)).join("\n");
        expect(all).not.toContain("NGINX-REPO-CERT-CONTENT");
        expect(all).not.toContain("NGINX-REPO-KEY-CONTENT");
    }, 120_000);
});

describe("mara plan with NGINX Plus credentials", () => {
    it("prints the plan, the warnings and the graphs without the JWT, even when the stack file holds it in plain text", async () => {
        const stack = path.join(dir, "Pulumi.plus.yaml");
        fs.writeFileSync(
            stack,
            ["config:", "  kubernetes:infra_type: aws", "  aws:region: us-east-1", `  mara:nginxJwt: ${JWT}`, `  kic:image_name: ${PLUS_IMAGE}`, "  kic-helm:enable_plus: true", ""].join("\n"),
        );
        const r = await runMara(["plan", "--config-file", stack, "--mermaid", "plan.mmd", "--dot", "plan.dot"], { cwd: dir });
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toContain("IngressControllerImage");
        const written = ["plan.mmd", "plan.dot"].map((f) => fs.readFileSync(path.join(dir, f), "utf8"));
        for (const text of [r.stdout, r.stderr, ...written]) expect(text).not.toContain(JWT);
    }, 120_000);
});

describe("an NGINX Plus JWT on a stack that runs the open-source image", () => {
    it("reaches no Secret, no provider and no value: the key is named as not used", async () => {
        const run = await runProgram(aws({ "mara:nginxJwt": JWT }, { secret: ["mara:nginxJwt"] }));
        expect(run.error).toBeUndefined();
        expect(run.warnings.join("\n")).toContain("mara:nginxJwt is not used");
        // Not even inside secret wrappers: nothing registered holds it.
        expect(JSON.stringify(run.registrations.map((r) => unwrapSecrets(r.inputs)))).not.toContain(JWT);
        expect(run.registrations.some((r) => r.name === "platform-ingress-controller-license")).toBe(false);
    });
});
