// The kassen rules engine for C# (Unity, Mono, .NET): Game and State over the C ABI.
//
// - Game and State own their native handles through SafeHandles; Dispose them (or use
//   `using`) to release native memory at once. State.Clone() is the explicit copy.
// - Every failure throws KassenException with the stable status code of the C ABI (the same
//   number as Python's exc.code); a rejected call leaves the state exactly as it was.
// - The per-step calls (CurrentPlayer, IsTerminal, LegalActions(uint[]), ApplyAction,
//   ApplyActionAs, ObservationTensor(int, float[]), Returns(double[])) allocate nothing: they
//   fill arrays the caller reuses.
// - Strings cross the boundary as UTF-8 bytes, marshalled by hand (no LPUTF8Str).
using System;
using System.Runtime.InteropServices;
using System.Text;

namespace Kassen
{
    /// <summary>A failed kassen call: Code is the C status (kassen_status), Message the library's.</summary>
    public sealed class KassenException : Exception
    {
        public KassenException(int code, string message)
            : base(Kassen.StatusName(code) + ": " + message)
        {
            Code = code;
            LibraryMessage = message;
        }

        /// <summary>The stable status code, e.g. 200 for KASSEN_STATUS_ILLEGAL_ACTION.</summary>
        public int Code { get; private set; }
        /// <summary>The status constant's name, e.g. "KASSEN_STATUS_ILLEGAL_ACTION".</summary>
        public string StatusName { get { return Kassen.StatusName(Code); } }
        /// <summary>The library's message (kassen_last_error_message at the failure).</summary>
        public string LibraryMessage { get; private set; }
    }

    /// <summary>Library-wide queries and constants.</summary>
    public static class Kassen
    {
        /// <summary>The ABI version this binding was written for (KASSEN_ABI_VERSION of kassen.h).</summary>
        public const uint AbiVersion = 1;
        /// <summary>current_player at a chance node; the spectator in views, events and tensors.</summary>
        public const int Chance = -1;
        public const int Spectator = -1;
        /// <summary>current_player of a finished game.</summary>
        public const int Terminal = -4;

        public const int StatusOk = 0;
        public const int StatusBufferTooSmall = 3;
        public const int StatusInvalidArgument = 5;

        /// <summary>The version of the loaded library, e.g. "0.1.0".</summary>
        public static string Version() { return Utf8.FromCString(Native.kassen_version()); }

        /// <summary>The ABI version of the loaded library; must equal AbiVersion.</summary>
        public static uint LibraryAbiVersion() { return Native.kassen_abi_version(); }

        /// <summary>Throws unless the loaded library speaks this binding's ABI. Call it at startup.</summary>
        public static void CheckLibrary()
        {
            uint abi = Native.kassen_abi_version();
            if (abi != AbiVersion)
            {
                throw new InvalidOperationException(
                    "the kassen library has ABI " + abi + ", this binding needs ABI " + AbiVersion);
            }
        }

        /// <summary>The name of a status code, e.g. "KASSEN_STATUS_ILLEGAL_ACTION" for 200.</summary>
        public static string StatusName(int code) { return Utf8.FromCString(Native.kassen_status_name(code)); }

        /// <summary>The registered games as JSON: [{"id", "name", "configs": [...]}, ...].</summary>
        public static string GamesJson()
        {
            KassenBuf buf;
            return Utf8.TakeBuf(Native.kassen_games_json(out buf), ref buf);
        }

        internal static void Check(int status)
        {
            if (status != StatusOk)
            {
                throw new KassenException(status, Utf8.FromCString(Native.kassen_last_error_message()));
            }
        }
    }

    /// <summary>UTF-8 marshalling by hand.</summary>
    internal static class Utf8
    {
        /// <summary>The UTF-8 bytes of a string, without a terminator, for the library's
        /// explicit-length (`_n`) inputs; null stays null.</summary>
        internal static byte[] ToBytes(string s)
        {
            return s == null ? null : Encoding.UTF8.GetBytes(s);
        }

        /// <summary>The length of `ToBytes` output for a `_n` input.</summary>
        internal static UIntPtr Len(byte[] bytes)
        {
            return new UIntPtr(bytes == null ? 0u : (uint)bytes.Length);
        }

        /// <summary>NUL-terminated UTF-8 bytes of a string; null stays null. A NUL inside the
        /// string throws KassenException with KASSEN_STATUS_INVALID_ARGUMENT (5), so the
        /// library never sees it cut short.</summary>
        internal static byte[] ToCString(string s)
        {
            if (s == null) return null;
            if (s.IndexOf('\0') >= 0)
                throw new KassenException(Kassen.StatusInvalidArgument, "the string contains a NUL character");
            int n = Encoding.UTF8.GetByteCount(s);
            byte[] bytes = new byte[n + 1];
            Encoding.UTF8.GetBytes(s, 0, s.Length, bytes, 0);
            return bytes;
        }

        /// <summary>Decodes a NUL-terminated UTF-8 string the library owns.</summary>
        internal static string FromCString(IntPtr p)
        {
            if (p == IntPtr.Zero) return "";
            int n = 0;
            while (Marshal.ReadByte(p, n) != 0) n++;
            byte[] bytes = new byte[n];
            Marshal.Copy(p, bytes, 0, n);
            return Encoding.UTF8.GetString(bytes);
        }

        /// <summary>Checks the status, decodes the buffer and frees it.</summary>
        internal static string TakeBuf(int status, ref KassenBuf buf)
        {
            Kassen.Check(status);
            try
            {
                int n = checked((int)buf.Len.ToUInt64());
                byte[] bytes = new byte[n];
                if (n > 0) Marshal.Copy(buf.Data, bytes, 0, n);
                return Encoding.UTF8.GetString(bytes);
            }
            finally
            {
                Native.kassen_buf_free(ref buf);
            }
        }
    }
}
