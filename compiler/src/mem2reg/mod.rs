//! mem2reg: SSA construction (`promote`) and phi elimination (`phi_eliminate`), the two
//! passes that bracket the optimizer (see `../shared/seeds/mem2reg-subsystem.txt`).

pub mod phi_eliminate;
pub mod promote;

pub use phi_eliminate::eliminate_phis;
pub use promote::{
    promote_allocas, promote_allocas_with_params, MAX_PHI_COPY_COST, MAX_PROMOTABLE_ALLOCA_SIZE,
};
