//! Message bodies as Discord accepts them ("API Reference", Uploading Files): plain JSON, or
//! `multipart/form-data` with the JSON in a `payload_json` part and each file in a `files[n]`
//! part, which the JSON's `attachments` array names by `id: n`.

use axum::extract::{FromRequest, Multipart, Request};
use axum::http::header::CONTENT_TYPE;
use serde_json::{Map, Value};

use crate::ids::AttachmentId;
use crate::rest::ApiError;
use crate::state::{Attachment, Shared};

/// A file part of a multipart body.
#[derive(Debug)]
pub(crate) struct Upload {
    /// The `n` of `files[n]`.
    pub index: u64,
    pub filename: String,
    pub content_type: Option<String>,
    pub bytes: Vec<u8>,
}

/// The JSON of a message-carrying request, with any files uploaded beside it.
#[derive(Debug)]
pub(crate) struct MessageBody {
    pub payload: Value,
    pub files: Vec<Upload>,
}

impl<S: Send + Sync> FromRequest<S> for MessageBody {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        let content_type = request.headers().get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or_default();
        if content_type.starts_with("multipart/form-data") {
            let multipart = Multipart::from_request(request, state)
                .await
                .map_err(|e| ApiError::invalid_form(format!("multipart body: {e}")))?;
            return read_multipart(multipart).await;
        }
        let bytes = axum::body::Bytes::from_request(request, state)
            .await
            .map_err(|e| ApiError::invalid_form(format!("body: {e}")))?;
        let payload = if bytes.is_empty() {
            Value::Object(Map::new())
        } else {
            serde_json::from_slice(&bytes).map_err(|e| ApiError::invalid_form(format!("JSON body: {e}")))?
        };
        Ok(MessageBody { payload, files: Vec::new() })
    }
}

async fn read_multipart(mut multipart: Multipart) -> Result<MessageBody, ApiError> {
    let malformed = |e: axum::extract::multipart::MultipartError| ApiError::invalid_form(format!("multipart: {e}"));
    let mut payload = Map::new();
    let mut files = Vec::new();
    while let Some(field) = multipart.next_field().await.map_err(malformed)? {
        let name = field.name().unwrap_or_default().to_owned();
        if let Some(index) = file_index(&name) {
            let filename = field.file_name().unwrap_or("file").to_owned();
            let content_type = field.content_type().map(str::to_owned);
            let bytes = field.bytes().await.map_err(malformed)?.to_vec();
            files.push(Upload { index, filename, content_type, bytes });
        } else if name == "payload_json" {
            let text = field.text().await.map_err(malformed)?;
            match serde_json::from_str(&text) {
                Ok(Value::Object(json)) => payload.extend(json),
                _ => return Err(ApiError::invalid_form("payload_json is not a JSON object")),
            }
        } else {
            // "The JSON params may be sent as form fields instead of payload_json."
            let text = field.text().await.map_err(malformed)?;
            payload.insert(name, Value::String(text));
        }
    }
    Ok(MessageBody { payload: Value::Object(payload), files })
}

/// `files[3]` is file 3. Discord also takes a bare `file` for single uploads: file 0.
fn file_index(name: &str) -> Option<u64> {
    if name == "file" {
        return Some(0);
    }
    name.strip_prefix("files[")?.strip_suffix(']')?.parse().ok()
}

/// The attachments a message has after this request.
///
/// The payload's `attachments` lists what the message keeps: `{id: n}` for the new file
/// `files[n]` (with an optional `filename` and `description` overriding the part's), or the id
/// of an attachment it already has. Without `attachments`, a new message takes every uploaded
/// file and an edited one keeps what it had and adds the uploads.
pub(crate) fn resolve_attachments(
    shared: &Shared,
    payload: &Value,
    files: Vec<Upload>,
    existing: &[Attachment],
) -> Result<Vec<Attachment>, ApiError> {
    let mut uploads: Vec<Option<Upload>> = files.into_iter().map(Some).collect();
    let mut take_upload =
        |index: u64| uploads.iter_mut().find(|u| u.as_ref().is_some_and(|u| u.index == index))?.take();
    let mint = |upload: Upload, filename: Option<&str>, description: Option<&str>| Attachment {
        id: AttachmentId(shared.mint()),
        filename: filename.unwrap_or(&upload.filename).to_owned(),
        description: description.map(str::to_owned),
        content_type: upload.content_type,
        bytes: upload.bytes,
    };

    let Some(listed) = payload.get("attachments").and_then(Value::as_array) else {
        let mut all = existing.to_vec();
        all.extend(uploads.into_iter().flatten().map(|u| mint(u, None, None)));
        return Ok(all);
    };
    let mut attachments = Vec::with_capacity(listed.len());
    for entry in listed {
        let id = match &entry["id"] {
            Value::String(s) => s.parse::<u64>().ok(),
            other => other.as_u64(),
        }
        .ok_or_else(|| ApiError::invalid_form("attachments[].id must be a snowflake or a file index"))?;
        if let Some(kept) = existing.iter().find(|a| a.id.get() == id) {
            attachments.push(kept.clone());
        } else if let Some(upload) = take_upload(id) {
            attachments.push(mint(upload, entry["filename"].as_str(), entry["description"].as_str()));
        } else {
            return Err(ApiError::invalid_form(format!("attachments[].id {id} names no file and no attachment")));
        }
    }
    Ok(attachments)
}

#[cfg(test)]
mod tests {
    use super::file_index;

    #[test]
    fn file_parts_are_numbered_by_their_brackets() {
        assert_eq!(file_index("files[0]"), Some(0));
        assert_eq!(file_index("files[12]"), Some(12));
        assert_eq!(file_index("file"), Some(0));
        assert_eq!(file_index("payload_json"), None);
        assert_eq!(file_index("files[x]"), None);
    }
}
