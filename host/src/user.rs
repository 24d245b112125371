//! The people the host deals with.

/// A person, resolved by their adapter: a stable id on their platform, and the name to show.
/// Messages meant for people name them by `name`, never by `id`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct User {
    pub id: String,
    pub name: String,
}
