//! The CCAvenue cipher (from CCAvenue's integration kit, DESIGN.md section 6).
//!
//! AES-128-CBC, key = the 16 raw bytes of MD5(working key), IV = the bytes `0x00..=0x0f`,
//! PKCS#7 padding, cipher text written as lowercase hex. This is not authenticated
//! encryption: a decrypted answer must still be checked against the stored order.

use aes::Aes128;
use cbc::cipher::{BlockModeDecrypt, BlockModeEncrypt, KeyIvInit, block_padding::Pkcs7};
use md5::{Digest, Md5};

type Aes128CbcEnc = cbc::Encryptor<Aes128>;
type Aes128CbcDec = cbc::Decryptor<Aes128>;

/// AES block size in bytes.
const BLOCK: usize = 16;

/// The fixed IV CCAvenue's kits use: bytes 0x00, 0x01, ..., 0x0f.
const IV: [u8; BLOCK] =
    [0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f];

/// Why a cipher text could not be decrypted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CryptoError {
    /// The input is not a hex string.
    #[error("cipher text is not hex")]
    NotHex,
    /// The input is empty or its byte length is not a multiple of 16.
    #[error("cipher text length {0} bytes is not a non-zero multiple of 16")]
    BadLength(usize),
    /// The PKCS#7 padding is wrong: the working key is wrong or the text was tampered with.
    #[error("bad padding (wrong working key or tampered cipher text)")]
    BadPadding,
    /// The plain text is not UTF-8.
    #[error("decrypted text is not UTF-8")]
    NotUtf8,
}

/// The AES key: the 16 raw bytes of MD5(working key).
fn key_of(working_key: &str) -> [u8; BLOCK] {
    Md5::digest(working_key.as_bytes()).into()
}

/// Encrypts `plain` for CCAvenue (the `encRequest` value, or a test gateway's `encResp`).
///
/// Returns lowercase hex; the output always holds at least one block (32 hex digits).
pub fn encrypt(plain: &str, working_key: &str) -> String {
    let key = key_of(working_key);
    let msg = plain.as_bytes();
    // PKCS#7 always adds 1..=16 bytes.
    let mut out = vec![0u8; (msg.len() / BLOCK + 1) * BLOCK];
    let ct = Aes128CbcEnc::new(&key.into(), &IV.into())
        .encrypt_padded_b2b::<Pkcs7>(msg, &mut out)
        .expect("output buffer holds the padded message");
    hex::encode(ct)
}

/// Decrypts a CCAvenue cipher text (`encResp`, or `encRequest` in the test gateway).
///
/// Accepts upper- or lowercase hex and ignores surrounding whitespace.
pub fn decrypt(cipher_hex: &str, working_key: &str) -> Result<String, CryptoError> {
    let bytes = hex::decode(cipher_hex.trim()).map_err(|e| match e {
        hex::FromHexError::OddLength => CryptoError::BadLength(cipher_hex.trim().len() / 2),
        _ => CryptoError::NotHex,
    })?;
    if bytes.is_empty() || bytes.len() % BLOCK != 0 {
        return Err(CryptoError::BadLength(bytes.len()));
    }
    let key = key_of(working_key);
    let mut out = vec![0u8; bytes.len()];
    let plain = Aes128CbcDec::new(&key.into(), &IV.into())
        .decrypt_padded_b2b::<Pkcs7>(&bytes, &mut out)
        .map_err(|_| CryptoError::BadPadding)?;
    String::from_utf8(plain.to_vec()).map_err(|_| CryptoError::NotUtf8)
}

#[cfg(test)]
mod tests {
    use super::*;

    // Known-answer vectors made with OpenSSL 3.0 (independent of this code):
    //   K=$(printf %s "$WK" | md5sum | cut -d' ' -f1)     # 31b883f061ef0b4d36336c1be89268ff
    //   printf %s "$plain" | openssl enc -aes-128-cbc -K $K \
    //       -iv 000102030405060708090a0b0c0d0e0f | xxd -p | tr -d '\n'
    const WK: &str = "F1E2D3C4B5A69788796A5B4C3D2E1F00";

    const REALISTIC: &str = "merchant_id=123456&order_id=ORD1742515200000AB12CD&currency=USD&amount=219.00&redirect_url=https%3A%2F%2Fconf.example.org%2Fapi%2Fccavenue-handle&cancel_url=https%3A%2F%2Fconf.example.org%2Fapi%2Fccavenue-handle&language=EN&billing_name=Jos%C3%A9+O%27Brien+%26+Co&billing_email=jose%40example.org";
    const REALISTIC_CT: &str = "58be997165d034150f62ccaee84c3fff63a5efac6a9bb22c42f56b4ebf4985488d0edc2123760a40e31c94fafa633f2bb50579ed15b6c4af6482c0a0069eaeb26df5962305d37152c5fc62fe7721f60cc0995d26888a75e8ab41b34b3d45a4034a1f834fa4f0caf1dc6fee7c4109cc216118032936dec5a135d73f0925d279b9c8ee245ed375b86691ee941231f30273562b05fe8a5103f66ff020440a216bc7dc8979fd65b4f88e06738d4fc4959e271d41093c9d601f8fd89e94721f9d577fcee46e26efb2c538e61de12bec29312ce4d10ca6b60a6872be7efb754841ac3ae653cc51fc12a89c201487344819141ff24c1df4e62e04f190f802fe8c48ef43e56383295c788070c5e2116fdbad04b0c576cb96d24ee8888be024b65b8e4072970f4c2640240c6f9b2d899f87f19574";

    const VECTORS: &[(&str, &str)] = &[
        // empty plain text: one block of pure padding
        ("", "ff55e3f5402cca0d34abb118bba57f55"),
        // a one-byte string
        ("a", "c60d0701564a3f42c1983b972d93a486"),
        // exactly 16 bytes: a second, full padding block
        ("0123456789abcdef", "79cff308900c07bc28dac514986a75b51a823c8bb7e40fdff034180a5aa56714"),
        // a realistic request with URL-encoded values
        (REALISTIC, REALISTIC_CT),
    ];

    #[test]
    fn key_is_md5_of_working_key() {
        assert_eq!(hex::encode(key_of(WK)), "31b883f061ef0b4d36336c1be89268ff");
    }

    #[test]
    fn encrypt_matches_openssl() {
        for (plain, ct) in VECTORS {
            assert_eq!(encrypt(plain, WK), *ct, "plain {plain:?}");
        }
    }

    #[test]
    fn decrypt_matches_openssl() {
        for (plain, ct) in VECTORS {
            assert_eq!(decrypt(ct, WK).as_deref(), Ok(*plain), "plain {plain:?}");
        }
    }

    #[test]
    fn decrypt_accepts_uppercase_hex_and_whitespace() {
        let upper = format!(" {}\n", REALISTIC_CT.to_uppercase());
        assert_eq!(decrypt(&upper, WK).as_deref(), Ok(REALISTIC));
    }

    #[test]
    fn round_trip() {
        for plain in ["x", "tracking_id=1&order_status=Success", "ünïcødé ✓ 日本", &"z".repeat(1000)] {
            let ct = encrypt(plain, "some other key");
            assert!(ct.chars().all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()));
            assert_eq!(ct.len() % 32, 0);
            assert_eq!(decrypt(&ct, "some other key").as_deref(), Ok(plain));
        }
    }

    #[test]
    fn error_not_hex() {
        assert_eq!(decrypt("zz55e3f5402cca0d34abb118bba57f55", WK), Err(CryptoError::NotHex));
        assert_eq!(decrypt("encResp=abc!", WK), Err(CryptoError::NotHex));
    }

    #[test]
    fn error_bad_length() {
        assert_eq!(decrypt("", WK), Err(CryptoError::BadLength(0)));
        assert_eq!(decrypt("   ", WK), Err(CryptoError::BadLength(0)));
        // 15 bytes
        assert_eq!(decrypt("ff55e3f5402cca0d34abb118bba57f", WK), Err(CryptoError::BadLength(15)));
        // odd number of hex digits
        assert!(matches!(decrypt("ff55e3f5402cca0d34abb118bba57f55f", WK), Err(CryptoError::BadLength(_))));
        // 17 bytes
        assert_eq!(decrypt("ff55e3f5402cca0d34abb118bba57f5500", WK), Err(CryptoError::BadLength(17)));
    }

    #[test]
    fn error_bad_padding_wrong_key() {
        // Checked with openssl: decrypting this with MD5("wrong-key") reports "bad decrypt".
        assert_eq!(decrypt(VECTORS[2].1, "wrong-key"), Err(CryptoError::BadPadding));
    }

    #[test]
    fn error_bad_padding_tampered() {
        // "0123456789abcde\0" encrypted with `openssl enc ... -nopad`: last byte 0x00 is
        // never valid PKCS#7.
        assert_eq!(decrypt("17087c4abfa0617733d275b12bc03f27", WK), Err(CryptoError::BadPadding));
    }

    #[test]
    fn error_not_utf8() {
        // printf '\xff\xfe\xfd' | openssl enc -aes-128-cbc -K ... -iv ... | xxd -p
        assert_eq!(decrypt("7edca6a06e11c1717a5594d02e6f48bb", WK), Err(CryptoError::NotUtf8));
    }
}
