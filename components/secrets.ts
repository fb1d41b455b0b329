import * as pulumi from "@pulumi/pulumi";
import * as random from "@pulumi/random";
import { DEFAULTS } from "../contracts";

/** Arguments of {@link Secrets}: each value is taken when given, generated otherwise. */
export interface SecretsArgs {
    /** Grafana administrator password (`prometheus:adminpass`). Generated when absent. */
    grafanaAdminPassword?: pulumi.Input<string>;
    /** Password of the Bank of Sirius accounts database (`sirius:accounts_pwd`). Generated when absent. */
    accountsDbPassword?: pulumi.Input<string>;
    /** Password of the Bank of Sirius ledger database (`sirius:ledger_pwd`). Generated when absent. */
    ledgerDbPassword?: pulumi.Input<string>;
    /** Bank of Sirius demo login user (`sirius:demo_login_user`). Default `testuser`. */
    demoUser?: pulumi.Input<string>;
    /** Bank of Sirius demo login password (`sirius:demo_login_pwd`). Generated when absent. */
    demoPassword?: pulumi.Input<string>;
    /** Length of generated passwords. Default 24; at least 16. */
    length?: number;
}

/**
 * The platform's secrets in one place: configured values are used as they are, missing ones are
 * generated once by `random.RandomPassword` and kept in the (encrypted) state, so they are stable across
 * runs. Every output is a secret. Components that run pods turn these into Kubernetes Secrets in their
 * own namespaces (a Secret can only be mounted in its namespace), never into ConfigMaps or plain env.
 */
export class Secrets extends pulumi.ComponentResource {
    /** Grafana administrator password. */
    public readonly grafanaAdminPassword: pulumi.Output<string>;
    /** Password of the accounts database user. */
    public readonly accountsDbPassword: pulumi.Output<string>;
    /** Password of the ledger database user. */
    public readonly ledgerDbPassword: pulumi.Output<string>;
    /** Demo login user (a secret too: it is a credential). */
    public readonly demoUser: pulumi.Output<string>;
    /** Demo login password. */
    public readonly demoPassword: pulumi.Output<string>;
    /** Password the log agent uses to write to Elasticsearch (always generated). */
    public readonly logAgentPassword: pulumi.Output<string>;

    constructor(name: string, args: SecretsArgs = {}, opts?: pulumi.ComponentResourceOptions) {
        super("mara:platform:Secrets", name, {}, opts);
        const length = args.length ?? DEFAULTS.secrets.length;
        if (!Number.isInteger(length) || length < 16) throw new Error(`Secrets: length must be a whole number of at least 16; got ${length}.`);
        // Letters and digits only: these passwords end up in database URIs and config files unescaped.
        const generate = (role: string) =>
            new random.RandomPassword(`${name}-${role}`, { length, special: false, minLower: 2, minUpper: 2, minNumeric: 2 }, { parent: this }).result;
        const given = (value: pulumi.Input<string> | undefined, role: string) => pulumi.secret(value ?? generate(role));

        this.grafanaAdminPassword = given(args.grafanaAdminPassword, "grafana-admin");
        this.accountsDbPassword = given(args.accountsDbPassword, "accounts-db");
        this.ledgerDbPassword = given(args.ledgerDbPassword, "ledger-db");
        this.demoPassword = given(args.demoPassword, "demo-login");
        this.demoUser = pulumi.secret(args.demoUser ?? DEFAULTS.secrets.demoUser);
        this.logAgentPassword = pulumi.secret(generate("log-agent"));
        this.registerOutputs({
            grafanaAdminPassword: this.grafanaAdminPassword,
            accountsDbPassword: this.accountsDbPassword,
            ledgerDbPassword: this.ledgerDbPassword,
            demoUser: this.demoUser,
            demoPassword: this.demoPassword,
            logAgentPassword: this.logAgentPassword,
        });
    }
}
