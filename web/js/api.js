// Requests to a kassen server's JSON API. The transport is injectable: `fetchFn` defaults to
// the browser's fetch, `headers` are sent with every request (a session token, for example).
// A server's refusal ({"error", "code"} with a 4xx/5xx status) is thrown as an ApiError.

export class ApiError extends Error {
  constructor(message, status, code) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
  }
}

export function makeApi({ base = "", headers = {}, fetchFn = (...a) => fetch(...a) } = {}) {
  async function call(method, path, body) {
    const init = { method, headers: Object.assign({}, headers) };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const r = await fetchFn(base + path, init);
    let v;
    try {
      v = await r.json();
    } catch (err) {
      throw new ApiError("the answer is not JSON", r.status, undefined);
    }
    if (!r.ok) throw new ApiError((v && v.error) || "refused", r.status, v && v.code);
    return v;
  }
  return {
    get: (path) => call("GET", path),
    post: (path, body) => call("POST", path, body || {}),
  };
}

// The token a server put into the page's <meta name="kassen-token"> (empty when none).
export function pageToken(doc = document) {
  const m = doc.querySelector('meta[name="kassen-token"]');
  return m ? m.content : "";
}
