/**
 * What a credential looks like, for the rules that keep them out of ConfigMaps and literal environment variables.
 * Two tests: the value has the shape of a known kind of secret (a private key, a cloud or Git host token, a JWT,
 * a URL with a password in it), or its name says it holds one (`DB_PASSWORD`, `api_key`) and it is written out
 * rather than referenced. Each pattern is valid in RE2, which CEL uses, and in JavaScript alike.
 */

/** Shapes of known secrets, by what they are. */
export const SECRET_SHAPES: readonly { readonly what: string; readonly pattern: string }[] = [
    { what: "a private key", pattern: "-----BEGIN ([A-Z0-9]+ )*PRIVATE KEY-----" },
    { what: "an AWS access key ID", pattern: "(^|[^A-Z0-9])(AKIA|ASIA)[A-Z0-9]{16}([^A-Z0-9]|$)" },
    { what: "a GitHub token", pattern: "(gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})" },
    { what: "a Slack token", pattern: "xox[abposr]-[A-Za-z0-9-]{10,}" },
    { what: "a DigitalOcean token", pattern: "do[opr]_v1_[a-f0-9]{64}" },
    { what: "a Google API key", pattern: "AIza[0-9A-Za-z_-]{35}" },
    { what: "a JSON Web Token", pattern: "eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}" },
    // A password written into a URL; `${VAR}` and `$(VAR)` references to one are not.
    { what: "a URL with a password", pattern: "[A-Za-z][A-Za-z0-9+.-]*://[^/:@\\s]+:[^$/@\\s][^/@\\s]*@" },
];

/** One pattern matching any {@link SECRET_SHAPES}. */
export const SECRET_SHAPE = SECRET_SHAPES.map((s) => `(${s.pattern})`).join("|");

/**
 * Names of settings that hold a credential: ending in PASSWORD, TOKEN, SECRET, API_KEY and the like, in either
 * case, after a separator or alone. `PRIV_KEY_PATH` or `TOKEN_EXPIRY_SECONDS` name something else.
 */
export const SECRET_NAME =
    "(^|[_.-])(PASSWORD|PASSWD|PASSPHRASE|SECRET|TOKEN|API_KEY|APIKEY|ACCESS_KEY|SECRET_KEY|PRIVATE_KEY|CREDENTIALS|" +
    "password|passwd|passphrase|secret|token|api_key|apikey|access_key|secret_key|private_key|credentials)$";

/** What kind of secret `value` looks like, or undefined. */
export function secretShape(value: string): string | undefined {
    return SECRET_SHAPES.find((s) => new RegExp(s.pattern).test(value))?.what;
}

/** Whether a setting's name says it holds a credential. */
export const isSecretName = (name: string) => new RegExp(SECRET_NAME).test(name);
