// A small JSON reader and writer for views, events, info and configs (Unity's JsonUtility
// cannot read arbitrary objects). Parse: objects become Dictionary<string, object>, arrays
// List<object>, numbers long (integral) or double, strings string, true/false bool, null null.
// Serialize writes those back (and any IDictionary with string keys, any IEnumerable, every
// .NET number type), so a config read from Kassen.GamesJson() can be changed and passed on.
using System;
using System.Collections;
using System.Collections.Generic;
using System.Globalization;
using System.Text;

namespace Kassen
{
    public static class Json
    {
        /// <summary>Compact JSON text of `value`: null, bool, string, char, any .NET number
        /// (finite; NaN and infinities throw ArgumentException), IDictionary (string keys) as an
        /// object, any other IEnumerable as an array. Other types throw ArgumentException.
        /// Json.Parse(Json.Serialize(v)) gives v back for the values Parse returns.</summary>
        public static string Serialize(object value)
        {
            var sb = new StringBuilder();
            Write(sb, value);
            return sb.ToString();
        }

        private static void Write(StringBuilder sb, object value)
        {
            if (value == null) { sb.Append("null"); return; }
            if (value is bool) { sb.Append((bool)value ? "true" : "false"); return; }
            if (value is string) { WriteString(sb, (string)value); return; }
            if (value is char) { WriteString(sb, value.ToString()); return; }
            if (value is double || value is float)
            {
                double d = Convert.ToDouble(value, CultureInfo.InvariantCulture);
                if (double.IsNaN(d) || double.IsInfinity(d))
                    throw new ArgumentException("JSON has no NaN or infinity: " + d.ToString(CultureInfo.InvariantCulture));
                string text = value is float
                    ? ((float)value).ToString("R", CultureInfo.InvariantCulture)
                    : d.ToString("R", CultureInfo.InvariantCulture);
                // Keep a double a double when read back ("2" would come back as a long).
                if (text.IndexOfAny(new[] { '.', 'E', 'e' }) < 0) text += ".0";
                sb.Append(text);
                return;
            }
            if (value is decimal) { sb.Append(((decimal)value).ToString(CultureInfo.InvariantCulture)); return; }
            if (value is sbyte || value is byte || value is short || value is ushort || value is int ||
                value is uint || value is long || value is ulong)
            {
                sb.Append(((IFormattable)value).ToString(null, CultureInfo.InvariantCulture));
                return;
            }
            var dict = value as IDictionary;
            if (dict != null)
            {
                sb.Append('{');
                bool first = true;
                foreach (DictionaryEntry e in dict)
                {
                    var key = e.Key as string;
                    if (key == null) throw new ArgumentException("JSON object keys are strings, not " + e.Key.GetType());
                    if (!first) sb.Append(',');
                    first = false;
                    WriteString(sb, key);
                    sb.Append(':');
                    Write(sb, e.Value);
                }
                sb.Append('}');
                return;
            }
            var list = value as IEnumerable;
            if (list != null)
            {
                sb.Append('[');
                bool first = true;
                foreach (object item in list)
                {
                    if (!first) sb.Append(',');
                    first = false;
                    Write(sb, item);
                }
                sb.Append(']');
                return;
            }
            throw new ArgumentException("cannot write a " + value.GetType() + " as JSON");
        }

        private static void WriteString(StringBuilder sb, string s)
        {
            sb.Append('"');
            foreach (char c in s)
            {
                switch (c)
                {
                    case '"': sb.Append("\\\""); break;
                    case '\\': sb.Append("\\\\"); break;
                    case '\n': sb.Append("\\n"); break;
                    case '\r': sb.Append("\\r"); break;
                    case '\t': sb.Append("\\t"); break;
                    case '\b': sb.Append("\\b"); break;
                    case '\f': sb.Append("\\f"); break;
                    default:
                        if (c < 0x20) sb.Append("\\u").Append(((int)c).ToString("x4", CultureInfo.InvariantCulture));
                        else sb.Append(c);
                        break;
                }
            }
            sb.Append('"');
        }

        /// <summary>Parses one JSON value; throws FormatException on malformed text.</summary>
        public static object Parse(string text)
        {
            if (text == null) throw new ArgumentNullException("text");
            int at = 0;
            object value = ReadValue(text, ref at);
            SkipSpace(text, ref at);
            if (at != text.Length) throw new FormatException("trailing characters at " + at);
            return value;
        }

        private static void SkipSpace(string s, ref int at)
        {
            while (at < s.Length && (s[at] == ' ' || s[at] == '\t' || s[at] == '\n' || s[at] == '\r')) at++;
        }

        private static void Expect(string s, ref int at, char c)
        {
            SkipSpace(s, ref at);
            if (at >= s.Length || s[at] != c) throw new FormatException("expected '" + c + "' at " + at);
            at++;
        }

        private static object ReadValue(string s, ref int at)
        {
            SkipSpace(s, ref at);
            if (at >= s.Length) throw new FormatException("unexpected end of JSON");
            char c = s[at];
            if (c == '{') return ReadObject(s, ref at);
            if (c == '[') return ReadArray(s, ref at);
            if (c == '"') return ReadString(s, ref at);
            if (Literal(s, ref at, "true")) return true;
            if (Literal(s, ref at, "false")) return false;
            if (Literal(s, ref at, "null")) return null;
            return ReadNumber(s, ref at);
        }

        private static bool Literal(string s, ref int at, string word)
        {
            if (string.CompareOrdinal(s, at, word, 0, word.Length) != 0) return false;
            at += word.Length;
            return true;
        }

        private static Dictionary<string, object> ReadObject(string s, ref int at)
        {
            var result = new Dictionary<string, object>();
            at++;
            SkipSpace(s, ref at);
            if (at < s.Length && s[at] == '}')
            {
                at++;
                return result;
            }
            while (true)
            {
                SkipSpace(s, ref at);
                if (at >= s.Length || s[at] != '"') throw new FormatException("expected a key at " + at);
                string key = ReadString(s, ref at);
                Expect(s, ref at, ':');
                result[key] = ReadValue(s, ref at);
                SkipSpace(s, ref at);
                if (at < s.Length && s[at] == ',')
                {
                    at++;
                    continue;
                }
                Expect(s, ref at, '}');
                return result;
            }
        }

        private static List<object> ReadArray(string s, ref int at)
        {
            var result = new List<object>();
            at++;
            SkipSpace(s, ref at);
            if (at < s.Length && s[at] == ']')
            {
                at++;
                return result;
            }
            while (true)
            {
                result.Add(ReadValue(s, ref at));
                SkipSpace(s, ref at);
                if (at < s.Length && s[at] == ',')
                {
                    at++;
                    continue;
                }
                Expect(s, ref at, ']');
                return result;
            }
        }

        private static string ReadString(string s, ref int at)
        {
            var sb = new StringBuilder();
            at++;
            while (at < s.Length)
            {
                char c = s[at++];
                if (c == '"') return sb.ToString();
                if (c != '\\')
                {
                    sb.Append(c);
                    continue;
                }
                if (at >= s.Length) break;
                char e = s[at++];
                switch (e)
                {
                    case '"': sb.Append('"'); break;
                    case '\\': sb.Append('\\'); break;
                    case '/': sb.Append('/'); break;
                    case 'b': sb.Append('\b'); break;
                    case 'f': sb.Append('\f'); break;
                    case 'n': sb.Append('\n'); break;
                    case 'r': sb.Append('\r'); break;
                    case 't': sb.Append('\t'); break;
                    case 'u':
                        if (at + 4 > s.Length) throw new FormatException("short \\u escape at " + at);
                        sb.Append((char)int.Parse(s.Substring(at, 4), NumberStyles.HexNumber, CultureInfo.InvariantCulture));
                        at += 4;
                        break;
                    default: throw new FormatException("bad escape at " + at);
                }
            }
            throw new FormatException("unterminated string");
        }

        private static object ReadNumber(string s, ref int at)
        {
            int start = at;
            while (at < s.Length && "+-0123456789.eE".IndexOf(s[at]) >= 0) at++;
            string token = s.Substring(start, at - start);
            long integer;
            if (token.IndexOfAny(new[] { '.', 'e', 'E' }) < 0 &&
                long.TryParse(token, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out integer))
            {
                return integer;
            }
            double number;
            if (token.Length > 0 && double.TryParse(token, NumberStyles.Float, CultureInfo.InvariantCulture, out number))
            {
                return number;
            }
            throw new FormatException("bad value at " + start);
        }
    }
}
