import * as aws from "@pulumi/aws";
import * as pulumi from "@pulumi/pulumi";
import { DEFAULTS, RegistryCredentials } from "../contracts";

/** Arguments of {@link Ecr}. */
export interface EcrArgs {
    /**
     * Repository name, e.g. `ingress-controller-dev` (MARA's `ingress-controller-<stack>`). Lower-case
     * letters, digits and `._-/`, 2–256 characters. Required.
     */
    repositoryName: string;
    /** How many images the lifecycle policy keeps; older ones expire. Default 20. */
    imageRetention?: number;
    /** Extra tags for the repository. */
    tags?: Record<string, string>;
}

/**
 * The ECR repository the ingress controller image is pushed to. It is force-deleted with the stack
 * (MARA's `runner down` failed on a non-empty repository, issue #203), scans images on push, and expires
 * old images so the repository does not grow without bound.
 */
export class Ecr extends pulumi.ComponentResource {
    /** Repository URL to tag and push to, e.g. `123456789012.dkr.ecr.us-east-1.amazonaws.com/ingress-controller-dev`. */
    public readonly repositoryUrl: pulumi.Output<string>;
    /** ID of the registry (the AWS account ID). */
    public readonly registryId: pulumi.Output<string>;
    /** Registry host and a 12-hour push token; secret. Fetched on each run, never stored as plain text. */
    public readonly credentials: pulumi.Output<RegistryCredentials>;

    constructor(name: string, args: EcrArgs, opts?: pulumi.ComponentResourceOptions) {
        super("mara:registry:Ecr", name, {}, opts);
        const retention = args.imageRetention ?? DEFAULTS.ecr.imageRetention;
        validateEcrArgs(args.repositoryName, retention);

        const repo = new aws.ecr.Repository(
            `${name}-repository`,
            {
                name: args.repositoryName,
                imageTagMutability: "MUTABLE",
                forceDelete: true,
                imageScanningConfiguration: { scanOnPush: true },
                encryptionConfigurations: [{ encryptionType: "AES256" }],
                tags: args.tags,
            },
            { parent: this },
        );
        new aws.ecr.LifecyclePolicy(
            `${name}-lifecycle`,
            { repository: repo.name, policy: JSON.stringify(lifecyclePolicy(retention)) },
            { parent: this },
        );

        const token = aws.ecr.getAuthorizationTokenOutput({ registryId: repo.registryId }, { parent: this });
        this.repositoryUrl = repo.repositoryUrl;
        this.registryId = repo.registryId;
        this.credentials = pulumi.secret(
            pulumi.all([token.proxyEndpoint, token.userName, token.password]).apply(([endpoint, username, password]) => ({
                server: endpoint.replace(/^https:\/\//, ""),
                username,
                password,
            })),
        );
        this.registerOutputs({ repositoryUrl: this.repositoryUrl, registryId: this.registryId, credentials: this.credentials });
    }
}

/** The lifecycle policy document: keep the newest `keep` images of any tag state. */
export function lifecyclePolicy(keep: number) {
    return {
        rules: [
            {
                rulePriority: 1,
                description: `Keep the newest ${keep} images`,
                selection: { tagStatus: "any", countType: "imageCountMoreThan", countNumber: keep },
                action: { type: "expire" },
            },
        ],
    };
}

/** Checks repository name and retention; throws naming the argument and what is allowed. */
export function validateEcrArgs(repositoryName: string, imageRetention: number): void {
    if (!/^(?=.{2,256}$)[a-z0-9]+(?:[._-][a-z0-9]+)*(?:\/[a-z0-9]+(?:[._-][a-z0-9]+)*)*$/.test(repositoryName)) {
        throw new Error(`Ecr: repositoryName "${repositoryName}" is not a valid ECR name (lower-case letters, digits, '._-/', 2–256 characters).`);
    }
    if (!Number.isInteger(imageRetention) || imageRetention < 1) {
        throw new Error(`Ecr: imageRetention must be a whole number of images, at least 1; got ${imageRetention}.`);
    }
}
