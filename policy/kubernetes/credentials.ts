/**
 * Credentials belong in Secrets, which RBAC can keep apart, the API server can encrypt, and Pulumi and
 * `mara render` keep out of plain text. A ConfigMap is readable by anyone who can read the namespace's
 * configuration, and a literal environment variable is in the workload's spec for anyone who can read that.
 */
import { celString } from "../celLiteral";
import type { KubeObject, KubernetesRule } from "../rule";
import { isSecretName, SECRET_NAME, SECRET_SHAPE, secretShape } from "./credentialPatterns";
import { container, deployment, GOOD_CONTAINER, pod } from "./examples";
import { ECK_OPERATOR, KUBE_SYSTEM } from "./exemptions";
import { containerName, containersOf, WORKLOAD_VARIABLES, WORKLOADS } from "./workloads";

/** Why a name and its literal value look like a credential, or undefined. */
function credentialIn(name: string, value: string): string | undefined {
    const shape = secretShape(value);
    if (shape) return `looks like ${shape}`;
    if (value !== "" && isSecretName(name)) return "is named like a credential and written out";
    return undefined;
}

/** CEL: whether the name `n` and value `v` look like a credential (the same two tests as {@link credentialIn}). */
const celCredential = (n: string, v: string) => `(${v}.matches(${celString(SECRET_SHAPE)}) || (${v} != '' && ${n}.matches(${celString(SECRET_NAME)})))`;

const configMap = (data: Record<string, string>): KubeObject => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "settings", namespace: "team-a" }, data });

export const configMapCredentials: KubernetesRule = {
    kind: "kubernetes",
    id: "no-credentials-in-configmaps",
    description: "ConfigMaps hold no value that looks like a credential; credentials go in Secrets.",
    level: "mandatory",
    settings: {},
    targets: [{ group: "", kind: "ConfigMap", resource: "configmaps" }],
    check: (o) =>
        Object.entries((o.data ?? {}) as Record<string, string>)
            .map(([k, v]) => [k, credentialIn(k, String(v))] as const)
            .filter(([, why]) => why !== undefined)
            .map(([k, why]) => `ConfigMap "${o.metadata?.name}" key "${k}" ${why}: put it in a Secret`),
    admission: {
        validations: [
            {
                expression: `!has(object.data) || object.data.all(k, !${celCredential("k", "object.data[k]")})`,
                message: "ConfigMaps may not hold credentials (a private key, a token, a password); put them in a Secret",
            },
        ],
    },
    examples: {
        pass: [
            configMap({ LOG_LEVEL: "info", DATABASE_URL: "postgresql://app@db:5432/app", PASSWORD_FILE: "/run/secrets/db", "nginx.conf": "server { listen 80; }" }),
            configMap({ DB_URI: "postgresql://app:${DB_PASSWORD}@db:5432/app", TOKEN_EXPIRY_SECONDS: "3600", DB_PASSWORD: "" }),
        ],
        fail: [
            configMap({ DB_PASSWORD: "hunter2" }),
            configMap({ "id_rsa": "-----BEGIN RSA PRIVATE KEY-----\nMIIEow...\n-----END RSA PRIVATE KEY-----\n" }),
            configMap({ DATABASE_URL: "postgresql://app:hunter2@db:5432/app" }),
            configMap({ "settings.yaml": "aws:\n  key: AKIAIOSFODNN7EXAMPLE\n" }),
        ],
    },
};

export const envCredentials: KubernetesRule = {
    kind: "kubernetes",
    id: "no-credentials-in-env",
    description: "No container has a literal environment variable that looks like a credential; reference a Secret (valueFrom.secretKeyRef).",
    level: "mandatory",
    settings: {},
    targets: WORKLOADS,
    check: (o) =>
        containersOf(o).flatMap((c) =>
            (c.env ?? [])
                .filter((e) => typeof e.value === "string")
                .map((e) => [e.name ?? "", credentialIn(e.name ?? "", e.value!)] as const)
                .filter(([, why]) => why !== undefined)
                .map(([name, why]) => `container ${containerName(c)} variable ${name} ${why}: take it from a Secret with valueFrom.secretKeyRef`),
        ),
    admission: {
        variables: WORKLOAD_VARIABLES,
        validations: [
            {
                expression: `variables.containers.all(c, !has(c.env) || c.env.all(e, !has(e.value) || !${celCredential("e.name", "e.value")}))`,
                message: "environment variables may not hold credentials literally; take them from a Secret with valueFrom.secretKeyRef",
            },
        ],
    },
    exemptions: [KUBE_SYSTEM, ECK_OPERATOR],
    examples: {
        pass: [
            deployment({
                containers: [
                    container({
                        env: [
                            { name: "LOG_LEVEL", value: "debug" },
                            { name: "DB_PASSWORD", valueFrom: { secretKeyRef: { name: "db", key: "password" } } },
                            { name: "PRIV_KEY_PATH", value: "/root/.ssh/privatekey" },
                        ],
                    }),
                ],
            }),
            pod({ containers: [GOOD_CONTAINER] }),
        ],
        fail: [
            deployment({ containers: [container({ env: [{ name: "DB_PASSWORD", value: "hunter2" }] })] }),
            pod({ containers: [container({ env: [{ name: "GITHUB", value: `ghp_${"a1B2".repeat(9)}` }] })] }),
            deployment({ containers: [GOOD_CONTAINER], initContainers: [container({ name: "init", env: [{ name: "NGINX_JWT", value: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ0ZXN0In0.c2lnbmF0dXJlLXZhbHVl" }] })] }),
        ],
    },
};
