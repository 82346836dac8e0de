import Foundation
import Synchronization

/// The folding definition of the Search semantics article, written independently of ``TextFolding``: a Perl program
/// using Perl's own Unicode data (normalization forms, full case folding, scripts), run once over a
/// batch of texts.
public enum FoldingReference {
    /// The definition, step by step: width, canonical caseless folding (NFD, case fold, NFD),
    /// nonspacing marks after a Latin, Greek or Cyrillic letter removed, NFC. Texts travel as
    /// hexadecimal scalars, one text per line.
    static let program = #"""
        use strict; use warnings; use feature qw(fc unicode_strings);
        use Unicode::Normalize qw(NFD NFC NFKD);
        binmode STDOUT, ':utf8';
        while (my $line = <STDIN>) {
            chomp $line;
            my $s = join '', map { chr hex } grep { length } split / /, $line;
            $s = join '', map {
                my $o = ord;
                ($o >= 0xFF00 && $o <= 0xFFEF) ? NFKD($_) : $o == 0x3000 ? ' ' : $_
            } split //, $s;
            $s = NFD(fc(NFD($s)));
            my ($out, $after) = ('', 0);
            for my $c (split //, $s) {
                if ($c =~ /\p{Mn}/) { $out .= $c unless $after; next }
                $out .= $c;
                $after = ($c =~ /\p{L}/ && $c =~ /\p{Script=Latin}|\p{Script=Greek}|\p{Script=Cyrillic}/) ? 1 : 0;
            }
            print join(' ', map { sprintf '%X', ord } split //, NFC($out)), "\n";
        }
        """#

    /// The folded form of each text, by the reference.
    public static func fold(_ texts: [String]) throws -> [String] {
        let input = texts.map { text in text.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " ") + "\n" }.joined()
        let result = try ProcessRunner.run(executable: URL(fileURLWithPath: "/usr/bin/perl"), ["-e", program], input: input)
        guard result.status == 0 else { throw ReferenceError(description: "perl failed: \(result)") }
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        guard lines.count == texts.count else { throw ReferenceError(description: "perl gave \(lines.count) lines for \(texts.count) texts") }
        return lines.map { line in
            String(String.UnicodeScalarView(line.split(separator: " ").map { Unicode.Scalar(UInt32($0, radix: 16)!)! }))
        }
    }

    /// Folds the texts not folded yet, in one run of the reference, for ``folded(_:)``.
    public static func prepare(_ texts: some Sequence<String>) throws {
        var seen = Set<Key>()
        let missing = texts.filter { text in seen.insert(Key(text)).inserted && cache.withLock { $0[Key(text)] == nil } }
        guard !missing.isEmpty else { return }
        let folded = try fold(missing)
        cache.withLock { cache in
            for (text, result) in zip(missing, folded) { cache[Key(text)] = result }
        }
    }

    /// The folded form of a text that ``prepare(_:)`` folded.
    public static func folded(_ text: String) -> String {
        guard let result = cache.withLock({ $0[Key(text)] }) else { fatalError("not prepared: \(String(reflecting: text))") }
        return result
    }

    /// A text by its scalars (Swift's String equality is canonical equivalence, which would merge NFC and NFD).
    private struct Key: Hashable {
        let scalars: [UInt32]
        init(_ text: String) { scalars = text.unicodeScalars.map(\.value) }
    }

    private static let cache = Mutex<[Key: String]>([:])

    struct ReferenceError: Error, CustomStringConvertible {
        let description: String
    }
}
