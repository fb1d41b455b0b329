/** An explicit AWS provider for component tests, as the provider factory would create it. */
import * as aws from "@pulumi/aws";
import { promiseOf } from "./mocks";

export function awsProvider(region = "us-east-1"): aws.Provider {
    return new aws.Provider("aws", { region: region as aws.Region });
}

/** The provider reference string (`<urn>::<id>`) the engine records for resources using `provider`. */
export async function providerRef(provider: aws.Provider): Promise<string> {
    const [urn, id] = await Promise.all([promiseOf(provider.urn), promiseOf(provider.id)]);
    return `${urn}::${id}`;
}
