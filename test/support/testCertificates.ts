/**
 * X.509 certificates made in the test, for TLS servers on the loopback address: a certificate authority, server
 * certificates it signs (for chosen names, valid for a chosen period: an expired one, one for another host) and
 * self-signed ones. Node's crypto makes keys and signatures but not certificates, so this writes the DER of RFC 5280's
 * TBSCertificate itself (ECDSA P-256 with SHA-256), a few dozen lines rather than a package or the openssl binary.
 * Test-only keys: they protect nothing.
 */
import * as crypto from "crypto";

/** A certificate and its key, as PEM. */
export interface TestCertificate {
    readonly cert: string;
    readonly key: string;
    /** The key object, for signing others when this is an authority. */
    readonly privateKey: crypto.KeyObject;
    /** The DER of the subject name, for certificates this one issues. */
    readonly subjectDer: Buffer;
    readonly subjectKeyId: Buffer;
}

/** What to put in a certificate. */
export interface CertificateSpec {
    readonly commonName: string;
    /** Subject alternative names: `DNS:name` or `IP:1.2.3.4`. */
    readonly altNames?: readonly string[];
    readonly notBefore?: Date;
    readonly notAfter?: Date;
    /** An authority (basicConstraints CA:TRUE, keyCertSign). */
    readonly ca?: boolean;
    /** The issuer; none: self-signed. */
    readonly issuer?: TestCertificate;
}

const tlv = (tag: number, content: Buffer): Buffer => {
    const n = content.length;
    const length = n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : Buffer.from([0x82, n >> 8, n & 0xff]);
    return Buffer.concat([Buffer.from([tag]), length, content]);
};
const seq = (...items: Buffer[]) => tlv(0x30, Buffer.concat(items));
const set = (...items: Buffer[]) => tlv(0x31, Buffer.concat(items));
const int = (bytes: Buffer) => tlv(0x02, bytes[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);
const oid = (dotted: string) => {
    const [a, b, ...rest] = dotted.split(".").map(Number);
    const out = [a! * 40 + b!];
    for (const n of rest) {
        const groups: number[] = [];
        let v = n;
        do {
            groups.unshift(v & 0x7f);
            v >>= 7;
        } while (v > 0);
        out.push(...groups.map((g, i) => (i < groups.length - 1 ? g | 0x80 : g)));
    }
    return tlv(0x06, Buffer.from(out));
};
const bits = (bytes: Buffer) => tlv(0x03, Buffer.concat([Buffer.from([0]), bytes]));
const octets = (bytes: Buffer) => tlv(0x04, bytes);
const explicit = (n: number, content: Buffer) => tlv(0xa0 + n, content);
const time = (d: Date) => {
    const iso = d.toISOString().replace(/[-:T]/g, "").slice(0, 14);
    // UTCTime until 2049, GeneralizedTime after (RFC 5280, 4.1.2.5).
    return d.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(`${iso.slice(2)}Z`)) : tlv(0x18, Buffer.from(`${iso}Z`));
};
const name = (cn: string) => seq(set(seq(oid("2.5.4.3"), tlv(0x0c, Buffer.from(cn)))));
const ECDSA_SHA256 = seq(oid("1.2.840.10045.4.3.2"));

function altName(entry: string): Buffer {
    const [kind, value] = [entry.slice(0, entry.indexOf(":")), entry.slice(entry.indexOf(":") + 1)];
    if (kind === "IP") return tlv(0x87, Buffer.from(value.split(".").map(Number)));
    return tlv(0x82, Buffer.from(value));
}

let serial = 1;

/** Makes a certificate: self-signed, or signed by `spec.issuer`. */
export function makeCertificate(spec: CertificateSpec): TestCertificate {
    const { privateKey, publicKey } = crypto.generateKeyPairSync("ec", { namedCurve: "prime256v1" });
    const spki = publicKey.export({ type: "spki", format: "der" });
    // The key identifier of RFC 5280 4.2.1.2, method 1: the SHA-1 of the public key's bits (the SPKI's last 65 bytes for P-256).
    const subjectKeyId = crypto.createHash("sha1").update(spki.subarray(spki.length - 65)).digest();
    const subjectDer = name(spec.commonName);
    const issuerDer = spec.issuer?.subjectDer ?? subjectDer;
    const extensions = [
        seq(oid("2.5.29.19"), tlv(0x01, Buffer.from([0xff])), octets(seq(...(spec.ca ? [tlv(0x01, Buffer.from([0xff]))] : [])))),
        seq(oid("2.5.29.15"), tlv(0x01, Buffer.from([0xff])), octets(spec.ca ? tlv(0x03, Buffer.from([0x01, 0x06])) : tlv(0x03, Buffer.from([0x05, 0xa0])))),
        seq(oid("2.5.29.14"), octets(octets(subjectKeyId))),
        seq(oid("2.5.29.35"), octets(seq(tlv(0x80, spec.issuer?.subjectKeyId ?? subjectKeyId)))),
        ...(spec.altNames?.length ? [seq(oid("2.5.29.17"), octets(seq(...spec.altNames.map(altName))))] : []),
    ];
    const tbs = seq(
        explicit(0, int(Buffer.from([2]))),
        int(Buffer.from([0x10, serial++ & 0xff, crypto.randomBytes(1)[0]!])),
        ECDSA_SHA256,
        issuerDer,
        seq(time(spec.notBefore ?? new Date(Date.now() - 3600_000)), time(spec.notAfter ?? new Date(Date.now() + 365 * 86400_000))),
        subjectDer,
        spki,
        explicit(3, seq(...extensions)),
    );
    const signature = crypto.sign("sha256", tbs, spec.issuer?.privateKey ?? privateKey);
    const der = seq(tbs, ECDSA_SHA256, bits(signature));
    const cert = `-----BEGIN CERTIFICATE-----\n${der.toString("base64").replace(/.{64}/g, "$&\n").replace(/\n?$/, "\n")}-----END CERTIFICATE-----\n`;
    return { cert, key: privateKey.export({ type: "pkcs8", format: "pem" }) as string, privateKey, subjectDer, subjectKeyId };
}

/** An authority, and a server certificate it signs for 127.0.0.1 and localhost, valid now. */
export function testPki(): { ca: TestCertificate; server: TestCertificate } {
    const ca = makeCertificate({ commonName: "mara test CA", ca: true });
    const server = makeCertificate({ commonName: "127.0.0.1", altNames: ["IP:127.0.0.1", "DNS:localhost"], issuer: ca });
    return { ca, server };
}
