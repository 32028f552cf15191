import Testing

@testable import APITestJSON

/// JSONTestSuite-style corpus: `y_` texts must parse, `n_` texts must be rejected.
struct JSONParserCorpusTests {
    static let accepted: [(String, String)] = [
        ("y_array_empty", "[]"),
        ("y_array_empty_string", #"[""]"#),
        ("y_array_with_whitespace", " [ 1 , 2 ] "),
        ("y_array_heterogeneous", #"[null, 1, "1", {}]"#),
        ("y_array_nested", "[[[]]]"),
        ("y_array_ending_with_newline", "[\"a\"]\n"),
        ("y_object_empty", "{}"),
        ("y_object_empty_key", #"{"":0}"#),
        ("y_object_basic", #"{"asd":"sdf"}"#),
        ("y_object_duplicated_key", #"{"a":"b","a":"c"}"#),
        ("y_object_escaped_null_in_key", #"{"foo\u0000bar": 42}"#),
        (
            "y_object_long_strings",
            #"{"x":[{"id": "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}], "id": "xxxxxxxxxxxxxxxxxxxxx"}"#
        ),
        ("y_object_whitespace_everywhere", " \t\r\n{ \"a\" \n:\t[ 1 ,\r2 ] }\n\t "),
        ("y_number_0", "0"),
        ("y_number_negative_zero", "-0"),
        ("y_number_negative_int", "[-123]"),
        ("y_number_real_capital_e", "[1E22]"),
        ("y_number_real_capital_e_neg_exp", "[1E-2]"),
        ("y_number_real_capital_e_pos_exp", "[1E+2]"),
        ("y_number_real_exponent", "[123e45]"),
        ("y_number_real_fraction_exponent", "[123.456e78]"),
        ("y_number_real_neg_exp", "[1e-2]"),
        ("y_number_real_pos_exponent", "[1e+2]"),
        (
            "y_number_double_close_to_zero",
            "[-0.000000000000000000000000000000000000000000000000000000000000000000000000000001]"
        ),
        ("y_number_int_with_exp", "[20e1]"),
        ("y_number_minus_zero_fraction", "[-0.0]"),
        ("y_number_huge_integer", "[100000000000000000000000000000000000000]"),
        ("y_number_tiny_underflows_to_zero", "[1e-400]"),
        ("y_string_1_2_3_bytes_UTF-8_sequences", #"["\u0060\u012a\u12AB"]"#),
        ("y_string_accepted_surrogate_pair", #"["\uD801\udc37"]"#),
        ("y_string_accepted_surrogate_pairs", #"["\ud83d\ude39\ud83d\udc8d"]"#),
        ("y_string_allowed_escapes", #"["\"\\\/\b\f\n\r\t"]"#),
        ("y_string_backslash_and_u_escaped_zero", #"["\\u0000"]"#),
        ("y_string_comments", #"["a/*b*/c/*d//e"]"#),
        ("y_string_escaped_control_character", #"["\u0012"]"#),
        ("y_string_in_array_with_leading_space", #"[ "asd"]"#),
        ("y_string_nonCharacterInUTF-8_U+FFFF", "[\"\u{FFFF}\"]"),
        ("y_string_unicode_U+10FFFE_nonchar", #"["\uDBFF\uDFFE"]"#),
        ("y_string_utf8", "[\"€𝄞\"]"),
        ("y_string_with_del_character", "[\"a\u{7F}a\"]"),
        ("y_string_u+2028_line_sep", "[\"\u{2028}\"]"),
        ("y_structure_lonely_false", "false"),
        ("y_structure_lonely_null", "null"),
        ("y_structure_lonely_string", #""asd""#),
        ("y_structure_string_empty", #""""#),
        ("y_structure_true_in_array", "[true]"),
        ("y_structure_whitespace_array", " [] "),
        ("y_structure_utf8_bom_empty_object", "\u{FEFF}{}"),
    ]

    static let rejected: [(String, String)] = [
        ("n_empty", ""),
        ("n_only_whitespace", " \n\t "),
        ("n_array_1_true_without_comma", "[1 true]"),
        ("n_array_comma_after_close", "[\"\"],"),
        ("n_array_comma_and_number", "[,1]"),
        ("n_array_double_comma", "[1,,2]"),
        ("n_array_extra_close", #"["x"]]"#),
        ("n_array_extra_comma", #"["",]"#),
        ("n_array_incomplete", #"["x""#),
        ("n_array_inner_array_no_comma", "[3[4]]"),
        ("n_array_just_comma", "[,]"),
        ("n_array_just_minus", "[-]"),
        ("n_array_missing_value", #"[   , ""]"#),
        ("n_array_star_inside", "[*]"),
        ("n_array_unclosed", #"[""#),
        ("n_array_unclosed_trailing_comma", "[1,"),
        ("n_array_colon_instead_of_comma", #"["": 1]"#),
        ("n_object_trailing_comma", #"{"id":0,}"#),
        ("n_object_bad_value", #"["x", truth]"#),
        ("n_object_comma_instead_of_colon", #"{"x", null}"#),
        ("n_object_double_colon", #"{"x"::"b"}"#),
        ("n_object_missing_colon", #"{"a" b}"#),
        ("n_object_missing_key", #"{:"b"}"#),
        ("n_object_missing_value", #"{"a":"#),
        ("n_object_no_colon", #"{"a""#),
        ("n_object_non_string_key", "{1:1}"),
        ("n_object_single_quote", "{'a':0}"),
        ("n_object_unquoted_key", #"{a: "b"}"#),
        ("n_object_with_single_string", #"{ "foo" : "bar", "a" }"#),
        ("n_object_trailing_comment", #"{"a":"b"}/**/"#),
        ("n_object_trailing_comment_slash", #"{"a":"b"}//"#),
        ("n_object_comment_inside", #"{"a":/*comment*/"b"}"#),
        ("n_object_value_missing_before_close", #"{"a":}"#),
        ("n_number_++", "[++1234]"),
        ("n_number_+1", "[+1]"),
        ("n_number_-01", "[-01]"),
        ("n_number_-1.0.", "[-1.0.]"),
        ("n_number_-2.", "[-2.]"),
        ("n_number_-NaN", "[-NaN]"),
        ("n_number_.-1", "[.-1]"),
        ("n_number_.2e-3", "[.2e-3]"),
        ("n_number_0.e1", "[0.e1]"),
        ("n_number_0_capital_E", "[0E]"),
        ("n_number_0e+", "[0e+]"),
        ("n_number_1.0e-", "[1.0e-]"),
        ("n_number_2.e3", "[2.e3]"),
        ("n_number_9.e+", "[9.e+]"),
        ("n_number_Inf", "[Inf]"),
        ("n_number_infinity", "[Infinity]"),
        ("n_number_NaN", "[NaN]"),
        ("n_number_hex_1_digit", "[0x1]"),
        ("n_number_leading_zero", "[012]"),
        ("n_number_minus_space_1", "[- 1]"),
        ("n_number_neg_with_garbage_at_end", "[-1x]"),
        ("n_number_real_without_fractional_part", "[1.]"),
        ("n_number_with_leading_zero", "[00]"),
        ("n_number_U+FF11_fullwidth_digit_one", "[\u{FF11}]"),
        ("n_number_huge_exponent_overflows_double", "[1e400]"),
        ("n_string_1_surrogate_then_escape", #"["\uD800\"]"#),
        ("n_string_1_surrogate_then_escape_u", #"["\uD800\u"]"#),
        ("n_string_incomplete_surrogate", #"["\uD834\uDd"]"#),
        ("n_string_lone_low_surrogate", #"["\uDC00"]"#),
        ("n_string_lone_high_surrogate_then_char", #"["\uD800abc"]"#),
        ("n_string_high_then_high_surrogate", #"["\uD800\uD800"]"#),
        ("n_string_backslash_00", "[\"\\\u{0}\"]"),
        ("n_string_escape_x", #"["\x00"]"#),
        ("n_string_escaped_emoji", "[\"\\🌀\"]"),
        ("n_string_incomplete_escape", #"["\"]"#),
        ("n_string_incomplete_escaped_character", #"["\u00A"]"#),
        ("n_string_invalid_backslash_esc", #"["\a"]"#),
        ("n_string_invalid_unicode_escape", #"["\uqqqq"]"#),
        ("n_string_single_quote", "['single quote']"),
        ("n_string_unescaped_newline", "[\"new\nline\"]"),
        ("n_string_unescaped_tab", "[\"\t\"]"),
        ("n_string_unescaped_ctrl_char", "[\"a\u{0}a\"]"),
        ("n_string_no_quotes_with_bad_escape", #"[\n]"#),
        ("n_string_start_escape_unclosed", #"["\"#),
        ("n_structure_angle_bracket_.", "<.>"),
        ("n_structure_array_trailing_garbage", "[1]x"),
        ("n_structure_array_with_extra_array_close", "[1]]"),
        ("n_structure_capitalized_True", "[True]"),
        ("n_structure_close_unopened_array", "1]"),
        ("n_structure_double_array", "[][]"),
        ("n_structure_end_array", "]"),
        ("n_structure_lone-open-bracket", "["),
        ("n_structure_no_data", " "),
        ("n_structure_null-byte-outside-string", "[\u{0}]"),
        ("n_structure_object_followed_by_closing_object", "{}}"),
        ("n_structure_open_object", "{"),
        ("n_structure_single_star", "*"),
        ("n_structure_two_values", "1 2"),
        ("n_structure_truncated_true", "tru"),
        ("n_structure_truncated_null", "[nul]"),
        ("n_structure_uescaped_LF_before_string", #"[\u000A""]"#),
        ("n_structure_whitespace_formfeed", "[\u{0C}]"),
        ("n_structure_U+2060_word_joined", "[\u{2060}]"),
        ("n_structure_comment_before_value", "/* c */ 1"),
    ]

    @Test(arguments: accepted)
    func accepts(_ testCase: (String, String)) {
        #expect(throws: Never.self, "\(testCase.0)") { _ = try JSONParser.parse(testCase.1) }
    }

    @Test(arguments: rejected)
    func rejects(_ testCase: (String, String)) {
        #expect(throws: JSONParseError.self, "\(testCase.0)") { _ = try JSONParser.parse(testCase.1) }
    }

    // MARK: - Byte-level cases that a Swift String cannot hold

    static let invalidUTF8: [(String, [UInt8])] = [
        ("n_string_invalid_utf8_lone_continuation", [0x5B, 0x22, 0x80, 0x22, 0x5D]),
        ("n_string_overlong_two_bytes", [0x22, 0xC0, 0xAF, 0x22]),
        ("n_string_overlong_three_bytes", [0x22, 0xE0, 0x80, 0xAF, 0x22]),
        ("n_string_utf16_surrogate_encoded_in_utf8", [0x22, 0xED, 0xA0, 0x80, 0x22]),
        ("n_string_beyond_U+10FFFF", [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22]),
        ("n_string_truncated_sequence", [0x22, 0xE2, 0x82, 0x22]),
        ("n_string_invalid_lead_byte", [0x22, 0xFF, 0x22]),
        ("n_structure_invalid_byte_outside_string", [0x5B, 0xFF, 0x5D]),
        ("n_structure_utf16le_bom", [0xFF, 0xFE, 0x5B, 0x00, 0x5D, 0x00]),
    ]

    @Test(arguments: invalidUTF8)
    func rejectsInvalidUTF8(_ testCase: (String, [UInt8])) {
        #expect(throws: JSONParseError.self, "\(testCase.0)") { _ = try JSONParser.parse(testCase.1) }
    }

    @Test func acceptsEveryValidUTF8Length() throws {
        let bytes: [UInt8] = [0x22, 0x41, 0xC3, 0xA9, 0xE2, 0x82, 0xAC, 0xF0, 0x9F, 0x98, 0x80, 0x22]
        #expect(try JSONParser.parse(bytes) == .string("Aé€😀"))
    }
}
