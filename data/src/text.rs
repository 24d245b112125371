//! Enums stored as text: readable in the database and in logs, checked on the way in and out.

/// Declares a fieldless enum whose values are stored as the given text, with `as_str`, `Display`,
/// `FromStr` and the conversions to and from the database.
macro_rules! text_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident ($kind:literal) {
            $( $(#[$vmeta:meta])* $variant:ident => $text:literal, )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )+
        }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            pub fn as_str(self) -> &'static str {
                match self {
                    $( $name::$variant => $text, )+
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl std::str::FromStr for $name {
            type Err = $crate::error::UnknownText;

            fn from_str(text: &str) -> Result<Self, Self::Err> {
                match text {
                    $( $text => Ok($name::$variant), )+
                    _ => Err($crate::error::UnknownText { kind: $kind, text: text.to_owned() }),
                }
            }
        }

        impl $crate::sql::ToValue for $name {
            fn to_value(&self) -> $crate::sql::Value<'_> {
                $crate::sql::Value::Text(self.as_str())
            }
        }

        impl $crate::sql::FromCell for $name {
            fn from_cell(cell: $crate::sql::Cell<'_>) -> Result<Self, $crate::error::ColumnError> {
                match cell {
                    $crate::sql::Cell::Text(text) => Ok(text.parse()?),
                    other => Err($crate::error::ColumnError::Type { expected: "text", found: other.kind() }),
                }
            }
        }
    };
}

pub(crate) use text_enum;
