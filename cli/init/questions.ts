/**
 * What the first run asks, per infrastructure type: the settings without which the stack cannot
 * deploy, plus the credentials. Everything else has a default (see docs/configuration.md's
 * reference) and can be changed later with `pulumi config set`.
 */
import * as path from "path";
import type { InfraType, KeyId } from "../../config";

/** One first-run question. */
export interface Question {
    readonly id: KeyId;
    /** May be left empty (then nothing is stored). */
    readonly optional?: boolean;
    /** Environment variables that answer it, in order of preference. */
    readonly env?: readonly string[];
    /**
     * Whether a value from `env` is stored in the stack. Tokens are not: the provider reads the variable
     * itself, and copying it would put a credential into a file.
     */
    readonly storeEnv?: boolean;
    /** A suggested answer when neither the key table nor the environment gives one. */
    readonly suggest?: (env: Readonly<Record<string, string | undefined>>) => string | undefined;
}

const fqdn: Question = { id: "fqdn" };

/** The questions of each infra type, in the order they are asked. */
export const QUESTIONS: Readonly<Record<InfraType, readonly Question[]>> = {
    aws: [
        { id: "awsRegion", env: ["AWS_REGION", "AWS_DEFAULT_REGION"], storeEnv: true, suggest: () => "us-east-1" },
        { id: "awsProfile", optional: true, env: ["AWS_PROFILE"], storeEnv: true },
    ],
    digitalocean: [{ id: "doToken", env: ["DIGITALOCEAN_TOKEN"] }, fqdn, { id: "doRegion" }],
    linode: [{ id: "linodeToken", env: ["LINODE_TOKEN"] }, fqdn, { id: "lkeRegion" }, { id: "lkeK8sVersion" }],
    kubeconfig: [
        {
            id: "kubeconfig",
            suggest: (env) => env.KUBECONFIG?.split(path.delimiter).find((p) => p !== "") ?? "~/.kube/config",
        },
        { id: "kubeContext", optional: true },
        fqdn,
    ],
};

/** Passwords the platform generates when unset; the first run offers to choose them instead. */
export const PASSWORDS: readonly KeyId[] = ["grafanaAdminPassword", "siriusAccountsPassword", "siriusLedgerPassword", "siriusDemoPassword"];
