import Foundation
import Testing
import Faultline

/// Model files are UTF-8. A declaration that names another encoding, a NUL
/// that makes libxml2 guess UTF-16 or UTF-32, or a processing instruction
/// without data is refused before the XML parser sees it: libxml2 crashed
/// decoding UTF-7, UTF-32 and EBCDIC, and Foundation's XMLParser on an empty
/// processing instruction (both found by the model-file fuzz target).
@Suite("Model file input that crashed the XML parser is refused with a typed error")
struct ModelFileEncodingTests {
    private func refusal(_ text: String) -> ModelFileError? {
        do {
            _ = try ModelFileReader().readContents(Data(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test("UTF-7, UTF-32 and EBCDIC declarations are refused, naming the encoding", arguments: ["UTF-7", "UTF-32", "EBCDIC-US", "ISO-8859-1"])
    func otherEncodings(encoding: String) throws {
        let error = try #require(refusal("<?xml version=\"1.0\" encoding=\"\(encoding)\"?><model/>"))
        #expect(error.description.contains("names encoding \"\(encoding)\""))
    }

    @Test("UTF-8 declared in any spelling reads")
    func utf8() throws {
        for spelling in ["UTF-8", "utf-8", "UTF8"] {
            let version = try ModelFileReader().readContents(Data("<?xml version='1.0' encoding='\(spelling)'?><model/>".utf8))
            #expect(version.model.entities.isEmpty)
        }
    }

    @Test("A NUL character is refused at its line and column")
    func nul() throws {
        let error = try #require(refusal("<?xml version=\"1.0\"?>\n<mo\0del/>"))
        #expect(error.description.contains("NUL"))
        #expect(error.line == 2 && error.column == 4)
    }

    @Test("A processing instruction without data is refused; one with data reads")
    func emptyProcessingInstruction() throws {
        let error = try #require(refusal("<?xml version=\"1.0\"?>\n<?lastxml?><model/>"))
        #expect(error.description.contains("processing instruction"))
        #expect(error.line == 2 && error.column == 1)
        _ = try ModelFileReader().readContents(Data("<?xml version=\"1.0\"?><?app data?><model/>".utf8))
    }
}
