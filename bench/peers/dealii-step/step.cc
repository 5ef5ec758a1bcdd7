/* ---------------------------------------------------------------------
 * peer-step: stationary 2D flow over Gartling's backward-facing step with
 * deal.II, the open-flow variant of the lid-driven cavity peer
 * shared/peers/dealii-cavity/cavity.cc (itself derived from the deal.II
 * tutorial step-57, Liang Zhao and Timo Heister, 2016; LGPL-2.1+, shipped
 * by Debian in libdeal.ii-doc 9.4.1).
 *
 * The solver is the cavity peer's, unchanged: Q2/Q1 Taylor-Hood, QGauss(3),
 * Newton's method with the step-57 backtracking line search started from the
 * Stokes solution, FGMRES (tolerance 1e-4 * |rhs|, restart 30) with the
 * step-57 block-triangular preconditioner (UMFPACK on the augmented velocity
 * block, ILU-CG 1e-6 on the pressure mass matrix), gamma = 1, the default
 * --al discrete (plain Galerkin Q2/Q1, the augmented Lagrangian
 * gamma B^T diag(Mp)^-1 B added algebraically and consistently), Newton to
 * an absolute l2 residual of 1e-10, give up after 3 stalled steps,
 * continuation in Re (Re / 2^m <= 150, doubling) only when Newton from the
 * Stokes start fails.
 *
 * Changed against the cavity peer (geometry, boundary conditions, outputs):
 *  - Gartling's channel (Int. J. Numer. Meth. Fluids 11 (1990) 953-967) as
 *    feastc's config/step.ini: [0,30] x [-0.5,0.5], a coarse mesh of 60 x 2
 *    square cells (GridGenerator::subdivided_hyper_rectangle), LEVEL global
 *    refinements (480 x 16 cells at level 3);
 *  - boundary ids by position: 1 = inflow (x = 0, 0 < y < 0.5), u = 24 y
 *    (0.5 - y), v = 0 (mean velocity 1); 0 = no slip (the step's face x = 0,
 *    y < 0, and the walls y = +-0.5); 2 = outflow x = 30, no Dirichlet
 *    condition: the natural condition of the step-57 weak form,
 *    nu du/dn - p n = 0 ("do nothing"). The pressure is then unique; the
 *    cavity peer fixes no pressure mean either, so nothing was removed;
 *  - Re = U H / nu with U = 1 (mean inflow velocity), H = 1 (channel height);
 *  - outputs: the sign changes of the wall shear du/dy on y = -0.5 (lower)
 *    and y = +0.5 (upper), from the cells' own shape-function gradients at
 *    equispaced points of each wall face, each zero located by bisection
 *    inside its cell; sign changes within 0.05 of x = 0 and x = 30 ignored.
 * --------------------------------------------------------------------- */

#include <deal.II/base/function.h>
#include <deal.II/base/logstream.h>
#include <deal.II/base/multithread_info.h>
#include <deal.II/base/quadrature_lib.h>
#include <deal.II/base/tensor.h>
#include <deal.II/base/utilities.h>

#include <deal.II/dofs/dof_handler.h>
#include <deal.II/dofs/dof_renumbering.h>
#include <deal.II/dofs/dof_tools.h>

#include <deal.II/fe/fe_q.h>
#include <deal.II/fe/fe_system.h>
#include <deal.II/fe/fe_values.h>

#include <deal.II/grid/grid_generator.h>
#include <deal.II/grid/tria.h>

#include <deal.II/lac/affine_constraints.h>
#include <deal.II/lac/block_sparse_matrix.h>
#include <deal.II/lac/block_vector.h>
#include <deal.II/lac/dynamic_sparsity_pattern.h>
#include <deal.II/lac/full_matrix.h>
#include <deal.II/lac/precondition.h>
#include <deal.II/lac/solver_cg.h>
#include <deal.II/lac/solver_gmres.h>
#include <deal.II/lac/sparse_direct.h>
#include <deal.II/lac/sparse_ilu.h>

#include <deal.II/numerics/vector_tools.h>

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace Step
{
  using namespace dealii;

  struct Options
  {
    double       Re         = 100.0;
    unsigned int level      = 5;
    double       tol        = 1e-10; // absolute l2 norm of the residual
    unsigned int samples    = 32; // wall-shear samples per wall face (ends included)
    unsigned int max_newton = 50; // as step-57
    double       gamma      = 1.0; // as step-57
    bool         discrete_al = true; // false: --al graddiv (step-57)
    bool         quiet      = false;
  };

  // Gartling's channel
  constexpr double x_in = 0.0, x_out = 30.0, y_low = -0.5, y_up = 0.5;
  constexpr unsigned int coarse_nx = 60, coarse_ny = 2; // square cells of 0.5
  constexpr double       corner_skip = 0.05; // ignore zeros this close to x_in, x_out
  // boundary ids, set by position on the coarse mesh
  constexpr types::boundary_id wall_id = 0, inflow_id = 1, outflow_id = 2;

  // Dirichlet data on the inflow and the no-slip parts: u = 24 y (0.5 - y),
  // v = 0 on x = 0, 0 < y < 0.5 (mean velocity 1); zero elsewhere (the step's
  // face x = 0, y < 0, and the walls y = +-0.5). The parabola vanishes at
  // both ends of the inflow, so the shared corner points agree.
  template <int dim>
  class BoundaryValues : public Function<dim>
  {
  public:
    BoundaryValues()
      : Function<dim>(dim + 1)
    {}
    virtual double value(const Point<dim> & p,
                         const unsigned int component) const override
    {
      if (component == 0 && std::abs(p[0] - x_in) < 1e-10 && p[1] > 0.0 &&
          p[1] < y_up)
        return 24.0 * p[1] * (0.5 - p[1]);
      return 0.0;
    }
  };

  // As step-57. Two additions for the --al discrete mode: the velocity
  // block to factorise can be given (A + gamma B^T W^-1 B instead of
  // block(0,0)), and the Schur complement inverse becomes
  // -(nu Mp^-1 + gamma W^-1) with W = diag(Mp) (Benzi & Olshanskii 2006)
  // instead of step-57's -(nu + gamma) Mp^-1.
  template <class PreconditionerMp>
  class BlockSchurPreconditioner : public Subscriptor
  {
  public:
    BlockSchurPreconditioner(double                           gamma,
                             double                           viscosity,
                             const BlockSparseMatrix<double> &S,
                             const SparseMatrix<double> &     P,
                             const PreconditionerMp &         Mppreconditioner,
                             const SparseMatrix<double> *     A_aug = nullptr,
                             const Vector<double> *           W_inv = nullptr)
      : gamma(gamma)
      , viscosity(viscosity)
      , stokes_matrix(S)
      , pressure_mass_matrix(P)
      , mp_preconditioner(Mppreconditioner)
      , W_inv(W_inv)
    {
      A_inverse.initialize(A_aug ? *A_aug : stokes_matrix.block(0, 0));
    }

    void vmult(BlockVector<double> &dst, const BlockVector<double> &src) const
    {
      Vector<double> utmp(src.block(0));

      {
        SolverControl solver_control(1000, 1e-6 * src.block(1).l2_norm());
        SolverCG<Vector<double>> cg(solver_control);

        dst.block(1) = 0.0;
        cg.solve(pressure_mass_matrix,
                 dst.block(1),
                 src.block(1),
                 mp_preconditioner);
        if (W_inv == nullptr)
          dst.block(1) *= -(viscosity + gamma);
        else
          {
            dst.block(1) *= -viscosity;
            for (unsigned int i = 0; i < dst.block(1).size(); ++i)
              dst.block(1)(i) -= gamma * (*W_inv)(i) * src.block(1)(i);
          }
      }

      {
        stokes_matrix.block(0, 1).vmult(utmp, dst.block(1));
        utmp *= -1.0;
        utmp += src.block(0);
      }

      A_inverse.vmult(dst.block(0), utmp);
    }

  private:
    const double                     gamma;
    const double                     viscosity;
    const BlockSparseMatrix<double> &stokes_matrix;
    const SparseMatrix<double> &     pressure_mass_matrix;
    const PreconditionerMp &         mp_preconditioner;
    const Vector<double> *           W_inv;
    SparseDirectUMFPACK              A_inverse;
  };

  // The augmented Newton matrix [[A + gamma C, B^T], [B, 0]] with
  // C = B^T W^-1 B, applied as system_matrix + gamma C on the velocity block.
  class AugmentedOperator
  {
  public:
    AugmentedOperator(const BlockSparseMatrix<double> &K,
                      const SparseMatrix<double> &     C,
                      const double                     gamma)
      : K(K)
      , C(C)
      , gamma(gamma)
    {}
    void vmult(BlockVector<double> &dst, const BlockVector<double> &src) const
    {
      K.vmult(dst, src);
      tmp.reinit(src.block(0).size());
      C.vmult(tmp, src.block(0));
      dst.block(0).add(gamma, tmp);
    }

  private:
    const BlockSparseMatrix<double> &K;
    const SparseMatrix<double> &     C;
    const double                     gamma;
    mutable Vector<double>           tmp;
  };

  struct NewtonStats
  {
    unsigned int stokes_solves = 0;
    unsigned int newton_steps  = 0; // Jacobian solves after the Stokes start
    unsigned int backtracks    = 0; // halvings of alpha in the line search
    unsigned int fgmres_its    = 0;
    double       t_assemble    = 0; // wall seconds in assemble()
    double       t_factorize   = 0; // wall seconds in UMFPACK initialize()
    double       t_krylov      = 0; // wall seconds in FGMRES (incl. precond.)
    double       res_initial   = 0; // residual of the Stokes initial guess
    double       res_final     = 0;
    bool         converged     = false;
    bool         continuation  = false;
    struct Stage
    {
      double       re;
      bool         from_stokes;
      unsigned int steps;
      bool         converged;
      double       res_final;
    };
    std::vector<Stage> stages; // one per call of newton_iteration()
  };

  struct WallZeros
  {
    std::vector<double> x;       // the sign changes of du/dy, ascending
    unsigned int        faces = 0; // wall faces sampled
    std::vector<double> skipped; // sign changes within corner_skip of the ends
  };

  template <int dim>
  class StationaryNavierStokes
  {
  public:
    StationaryNavierStokes(const Options &opt);
    void run();

  private:
    void setup_dofs();
    void initialize_system();
    void assemble(const bool initial_step, const bool assemble_matrix);
    void solve(const bool initial_step);
    bool newton_iteration(const bool from_stokes);
    void make_grid();
    WallZeros wall_zeros(const double y_wall) const;
    void log(const std::string &s) const
    {
      if (!opt.quiet)
        std::cerr << s << std::endl;
    }

    const Options                        opt;
    double                               viscosity;
    const double                         gamma;
    const unsigned int                   degree;
    std::vector<types::global_dof_index> dofs_per_block;

    Triangulation<dim> triangulation;
    FESystem<dim>      fe;
    DoFHandler<dim>    dof_handler;

    AffineConstraints<double> zero_constraints;
    AffineConstraints<double> nonzero_constraints;

    BlockSparsityPattern      sparsity_pattern;
    BlockSparseMatrix<double> system_matrix;
    SparseMatrix<double>      pressure_mass_matrix;

    // --al discrete only: W^-1 = diag(Mp)^-1, C = B^T W^-1 B, A + gamma C
    void                 build_discrete_al();
    SparsityPattern      aug_pattern;
    SparseMatrix<double> BtWB;
    SparseMatrix<double> A_aug;
    Vector<double>       W_inv;
    bool                 aug_ready = false;

    BlockVector<double> present_solution;
    BlockVector<double> newton_update;
    BlockVector<double> system_rhs;
    BlockVector<double> evaluation_point;

    NewtonStats stats;
  };

  template <int dim>
  StationaryNavierStokes<dim>::StationaryNavierStokes(const Options &opt)
    : opt(opt)
    , viscosity(1.0 / opt.Re)
    , gamma(opt.gamma)
    , degree(1)
    , triangulation(Triangulation<dim>::maximum_smoothing)
    , fe(FE_Q<dim>(degree + 1), dim, FE_Q<dim>(degree), 1)
    , dof_handler(triangulation)
  {}

  // As step-57, minus the console output.
  template <int dim>
  void StationaryNavierStokes<dim>::setup_dofs()
  {
    system_matrix.clear();
    pressure_mass_matrix.clear();

    dof_handler.distribute_dofs(fe);

    std::vector<unsigned int> block_component(dim + 1, 0);
    block_component[dim] = 1;
    DoFRenumbering::component_wise(dof_handler, block_component);

    dofs_per_block =
      DoFTools::count_dofs_per_fe_block(dof_handler, block_component);

    const FEValuesExtractors::Vector velocities(0);
    {
      nonzero_constraints.clear();
      DoFTools::make_hanging_node_constraints(dof_handler, nonzero_constraints);
      const BoundaryValues<dim> data;
      const std::map<types::boundary_id, const Function<dim> *> dirichlet = {
        {wall_id, &data}, {inflow_id, &data}}; // none on outflow_id
      VectorTools::interpolate_boundary_values(dof_handler,
                                               dirichlet,
                                               nonzero_constraints,
                                               fe.component_mask(velocities));
    }
    nonzero_constraints.close();

    {
      zero_constraints.clear();
      DoFTools::make_hanging_node_constraints(dof_handler, zero_constraints);
      const Functions::ZeroFunction<dim> zero(dim + 1);
      const std::map<types::boundary_id, const Function<dim> *> dirichlet = {
        {wall_id, &zero}, {inflow_id, &zero}};
      VectorTools::interpolate_boundary_values(dof_handler,
                                               dirichlet,
                                               zero_constraints,
                                               fe.component_mask(velocities));
    }
    zero_constraints.close();

    std::ostringstream s;
    s << "cells " << triangulation.n_active_cells() << "  dofs "
      << dof_handler.n_dofs() << " (" << dofs_per_block[0] << " + "
      << dofs_per_block[1] << ")";
    log(s.str());
  }

  template <int dim>
  void StationaryNavierStokes<dim>::initialize_system()
  {
    {
      BlockDynamicSparsityPattern dsp(dofs_per_block, dofs_per_block);
      DoFTools::make_sparsity_pattern(dof_handler, dsp, nonzero_constraints);
      sparsity_pattern.copy_from(dsp);
    }

    system_matrix.reinit(sparsity_pattern);
    aug_ready = false;

    present_solution.reinit(dofs_per_block);
    newton_update.reinit(dofs_per_block);
    system_rhs.reinit(dofs_per_block);
    evaluation_point.reinit(dofs_per_block);
  }

  // Identical to step-57.
  template <int dim>
  void StationaryNavierStokes<dim>::assemble(const bool initial_step,
                                             const bool assemble_matrix)
  {
    const auto t_start = std::chrono::steady_clock::now();
    if (assemble_matrix)
      system_matrix = 0;

    system_rhs = 0;

    QGauss<dim> quadrature_formula(degree + 2);

    FEValues<dim> fe_values(fe,
                            quadrature_formula,
                            update_values | update_quadrature_points |
                              update_JxW_values | update_gradients);

    const unsigned int dofs_per_cell = fe.n_dofs_per_cell();
    const unsigned int n_q_points    = quadrature_formula.size();

    // step-57's grad-div term gamma (div u, div v) is part of the discrete
    // equations only in the default mode; --al discrete solves the plain
    // Galerkin equations and augments algebraically in solve().
    const double gamma = opt.discrete_al ? 0.0 : this->gamma;

    const FEValuesExtractors::Vector velocities(0);
    const FEValuesExtractors::Scalar pressure(dim);

    FullMatrix<double> local_matrix(dofs_per_cell, dofs_per_cell);
    Vector<double>     local_rhs(dofs_per_cell);

    std::vector<types::global_dof_index> local_dof_indices(dofs_per_cell);

    std::vector<Tensor<1, dim>> present_velocity_values(n_q_points);
    std::vector<Tensor<2, dim>> present_velocity_gradients(n_q_points);
    std::vector<double>         present_pressure_values(n_q_points);

    std::vector<double>         div_phi_u(dofs_per_cell);
    std::vector<Tensor<1, dim>> phi_u(dofs_per_cell);
    std::vector<Tensor<2, dim>> grad_phi_u(dofs_per_cell);
    std::vector<double>         phi_p(dofs_per_cell);

    for (const auto &cell : dof_handler.active_cell_iterators())
      {
        fe_values.reinit(cell);

        local_matrix = 0;
        local_rhs    = 0;

        fe_values[velocities].get_function_values(evaluation_point,
                                                  present_velocity_values);
        fe_values[velocities].get_function_gradients(
          evaluation_point, present_velocity_gradients);
        fe_values[pressure].get_function_values(evaluation_point,
                                                present_pressure_values);

        for (unsigned int q = 0; q < n_q_points; ++q)
          {
            for (unsigned int k = 0; k < dofs_per_cell; ++k)
              {
                div_phi_u[k]  = fe_values[velocities].divergence(k, q);
                grad_phi_u[k] = fe_values[velocities].gradient(k, q);
                phi_u[k]      = fe_values[velocities].value(k, q);
                phi_p[k]      = fe_values[pressure].value(k, q);
              }

            for (unsigned int i = 0; i < dofs_per_cell; ++i)
              {
                if (assemble_matrix)
                  {
                    for (unsigned int j = 0; j < dofs_per_cell; ++j)
                      {
                        local_matrix(i, j) +=
                          (viscosity *
                             scalar_product(grad_phi_u[j], grad_phi_u[i]) +
                           present_velocity_gradients[q] * phi_u[j] * phi_u[i] +
                           grad_phi_u[j] * present_velocity_values[q] *
                             phi_u[i] -
                           div_phi_u[i] * phi_p[j] - phi_p[i] * div_phi_u[j] +
                           gamma * div_phi_u[j] * div_phi_u[i] +
                           phi_p[i] * phi_p[j]) *
                          fe_values.JxW(q);
                      }
                  }

                double present_velocity_divergence =
                  trace(present_velocity_gradients[q]);
                local_rhs(i) +=
                  (-viscosity * scalar_product(present_velocity_gradients[q],
                                               grad_phi_u[i]) -
                   present_velocity_gradients[q] * present_velocity_values[q] *
                     phi_u[i] +
                   present_pressure_values[q] * div_phi_u[i] +
                   present_velocity_divergence * phi_p[i] -
                   gamma * present_velocity_divergence * div_phi_u[i]) *
                  fe_values.JxW(q);
              }
          }

        cell->get_dof_indices(local_dof_indices);

        const AffineConstraints<double> &constraints_used =
          initial_step ? nonzero_constraints : zero_constraints;

        if (assemble_matrix)
          constraints_used.distribute_local_to_global(local_matrix,
                                                      local_rhs,
                                                      local_dof_indices,
                                                      system_matrix,
                                                      system_rhs);
        else
          constraints_used.distribute_local_to_global(local_rhs,
                                                      local_dof_indices,
                                                      system_rhs);
      }

    if (assemble_matrix)
      {
        pressure_mass_matrix.reinit(sparsity_pattern.block(1, 1));
        pressure_mass_matrix.copy_from(system_matrix.block(1, 1));
        system_matrix.block(1, 1) = 0;
        if (opt.discrete_al)
          build_discrete_al();
      }
    stats.t_assemble += std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - t_start)
                          .count();
  }

  // --al discrete: C = B^T W^-1 B with W = diag(Mp) (B and Mp do not change
  // during the Newton iteration on a fixed mesh: built once), and
  // A_aug = A + gamma C on the union of both sparsity patterns.
  template <int dim>
  void StationaryNavierStokes<dim>::build_discrete_al()
  {
    const SparseMatrix<double> &A = system_matrix.block(0, 0);
    if (!aug_ready)
      {
        aug_ready = true;
        W_inv.reinit(pressure_mass_matrix.m());
        for (unsigned int i = 0; i < W_inv.size(); ++i)
          W_inv(i) = 1.0 / pressure_mass_matrix.diag_element(i);

        DynamicSparsityPattern dsp(A.m(), A.n());
        dsp.compute_mmult_pattern(sparsity_pattern.block(0, 1),
                                  sparsity_pattern.block(1, 0));
        for (unsigned int i = 0; i < A.m(); ++i)
          for (auto it = sparsity_pattern.block(0, 0).begin(i);
               it != sparsity_pattern.block(0, 0).end(i);
               ++it)
            dsp.add(i, it->column());
        aug_pattern.copy_from(dsp);
        BtWB.reinit(aug_pattern);
        A_aug.reinit(aug_pattern);
        system_matrix.block(0, 1).mmult(BtWB,
                                        system_matrix.block(1, 0),
                                        W_inv,
                                        false);
        std::ostringstream s;
        s << "  discrete AL: nnz(A) " << A.n_nonzero_elements()
          << "  nnz(A + gamma B^T W^-1 B) " << aug_pattern.n_nonzero_elements();
        log(s.str());
      }
    A_aug.copy_from(BtWB);
    A_aug *= gamma;
    for (auto it = A.begin(); it != A.end(); ++it)
      A_aug.add(it->row(), it->column(), it->value());
  }

  // As step-57, except that FGMRES starts from a zero vector.
  template <int dim>
  void StationaryNavierStokes<dim>::solve(const bool initial_step)
  {
    const AffineConstraints<double> &constraints_used =
      initial_step ? nonzero_constraints : zero_constraints;

    SolverControl solver_control(system_matrix.m(),
                                 1e-4 * system_rhs.l2_norm(),
                                 false);

    SolverFGMRES<BlockVector<double>> gmres(solver_control);
    SparseILU<double>                 pmass_preconditioner;
    pmass_preconditioner.initialize(pressure_mass_matrix,
                                    SparseILU<double>::AdditionalData());

    const auto t_start = std::chrono::steady_clock::now();
    const BlockSchurPreconditioner<SparseILU<double>> preconditioner(
      gamma,
      viscosity,
      system_matrix,
      pressure_mass_matrix,
      pmass_preconditioner,
      opt.discrete_al ? &A_aug : nullptr,
      opt.discrete_al ? &W_inv : nullptr);
    const auto t_mid = std::chrono::steady_clock::now();

    newton_update = 0;
    if (!opt.discrete_al)
      gmres.solve(system_matrix, newton_update, system_rhs, preconditioner);
    else
      {
        // same solution as the Galerkin system: B du = r_p, so adding
        // gamma B^T W^-1 (B du - r_p) to the momentum rows changes nothing
        BlockVector<double> rhs(system_rhs);
        Vector<double>      tmp(rhs.block(1));
        tmp.scale(W_inv);
        Vector<double> tmp_u(rhs.block(0).size());
        system_matrix.block(0, 1).vmult(tmp_u, tmp);
        rhs.block(0).add(gamma, tmp_u);
        const AugmentedOperator K_aug(system_matrix, BtWB, gamma);
        gmres.solve(K_aug, newton_update, rhs, preconditioner);
      }
    stats.t_factorize += std::chrono::duration<double>(t_mid - t_start).count();
    stats.t_krylov += std::chrono::duration<double>(
                        std::chrono::steady_clock::now() - t_mid)
                        .count();
    stats.fgmres_its += solver_control.last_step();
    log("    FGMRES steps: " + std::to_string(solver_control.last_step()));

    constraints_used.distribute(newton_update);
  }

  // The step-57 Newton loop for one viscosity on a fixed mesh. Returns true
  // when the absolute l2 norm of the residual reached opt.tol.
  template <int dim>
  bool StationaryNavierStokes<dim>::newton_iteration(const bool from_stokes)
  {
    char buf[256];
    if (from_stokes)
      {
        present_solution = 0;
        evaluation_point = present_solution;
        assemble(true, true);
        solve(true);
        present_solution = newton_update;
        nonzero_constraints.distribute(present_solution);
        ++stats.stokes_solves;
      }
    evaluation_point = present_solution;
    assemble(false, false);
    double current_res = system_rhs.l2_norm();
    double last_res    = current_res;
    if (from_stokes && stats.stokes_solves == 1)
      stats.res_initial = current_res; // of the first Stokes start
    std::snprintf(buf, sizeof(buf), "  Re %g: initial residual %.3e",
                  1.0 / viscosity, current_res);
    log(buf);

    unsigned int n = 0, n_stalled = 0;
    while (current_res > opt.tol && n < opt.max_newton)
      {
        const double res_before = current_res;
        evaluation_point        = present_solution;
        assemble(false, true);
        solve(false);

        double alpha = 1.0;
        for (; alpha > 1e-5; alpha *= 0.5)
          {
            evaluation_point = present_solution;
            evaluation_point.add(alpha, newton_update);
            nonzero_constraints.distribute(evaluation_point);
            assemble(false, false);
            current_res = system_rhs.l2_norm();
            if (current_res < last_res)
              break;
            ++stats.backtracks;
          }
        present_solution = evaluation_point;
        last_res         = current_res;
        ++n;
        ++stats.newton_steps;
        std::snprintf(buf, sizeof(buf),
                      "  Newton %2u  alpha %-9g residual %.3e", n, alpha,
                      current_res);
        log(buf);
        if (!std::isfinite(current_res))
          break;
        // Not in step-57: give up (and let run() switch to continuation)
        // once the line search has stalled, i.e. after 3 consecutive steps
        // that each reduced the residual by less than 1 %.
        n_stalled = (current_res > 0.99 * res_before) ? n_stalled + 1 : 0;
        if (n_stalled >= 3)
          {
            log("  Newton stalled");
            break;
          }
      }
    stats.res_final = current_res;
    const bool ok = std::isfinite(current_res) && current_res <= opt.tol;
    stats.stages.push_back({1.0 / viscosity, from_stokes, n, ok, current_res});
    return ok;
  }

  // Gartling's channel: 60 x 2 square cells of 0.5, boundary ids by position
  // (the inflow/step split at y = 0 is a coarse vertex; children inherit the
  // ids), then LEVEL global refinements.
  template <int dim>
  void StationaryNavierStokes<dim>::make_grid()
  {
    static_assert(dim == 2, "Gartling's step is two-dimensional");
    GridGenerator::subdivided_hyper_rectangle(triangulation,
                                              {coarse_nx, coarse_ny},
                                              Point<dim>(x_in, y_low),
                                              Point<dim>(x_out, y_up));
    for (const auto &cell : triangulation.active_cell_iterators())
      for (const auto &face : cell->face_iterators())
        if (face->at_boundary())
          {
            const Point<dim> c = face->center();
            if (std::abs(c[0] - x_out) < 1e-10)
              face->set_boundary_id(outflow_id);
            else if (std::abs(c[0] - x_in) < 1e-10 && c[1] > 0.0)
              face->set_boundary_id(inflow_id);
            else
              face->set_boundary_id(wall_id); // the step's face, y = +-0.5
          }
    triangulation.refine_global(opt.level);
  }

  // The sign changes of the wall shear du/dy along the wall y = y_wall: du/dy
  // of the finite element solution from each wall cell's own shape-function
  // gradients at opt.samples equispaced points of its wall face (ends
  // included; on a Q2 velocity du/dy is a quadratic along the face), then
  // every sign change between two samples of the same face located by
  // bisection in the face's reference coordinate (to 1e-14). A sign change
  // between two faces (du/dy jumps across cells) is put at their common
  // vertex. Sign changes within corner_skip of x_in and x_out go to
  // `skipped` instead (printed as skipped_near_ends).
  template <int dim>
  WallZeros StationaryNavierStokes<dim>::wall_zeros(const double y_wall) const
  {
    const FEValuesExtractors::Vector velocities(0);
    using Cell = typename DoFHandler<dim>::active_cell_iterator;
    struct Face
    {
      Cell                cell;
      double              eta; // the face's reference coordinate normal to the wall
      std::vector<double> t, x, g; // reference coordinate, x, du/dy
    };
    // x and du/dy at the reference points (t[k], eta) of cell
    auto evaluate = [&](const Cell &               cell,
                        const double               eta,
                        const std::vector<double> &t,
                        std::vector<double> &      x,
                        std::vector<double> &      g) {
      std::vector<Point<dim>> ref(t.size());
      for (unsigned int k = 0; k < t.size(); ++k)
        ref[k] = Point<dim>(t[k], eta);
      FEValues<dim> fv(fe,
                       Quadrature<dim>(ref),
                       update_gradients | update_quadrature_points);
      fv.reinit(cell);
      std::vector<Tensor<2, dim>> grad(t.size());
      fv[velocities].get_function_gradients(present_solution, grad);
      x.resize(t.size());
      g.resize(t.size());
      for (unsigned int k = 0; k < t.size(); ++k)
        {
          x[k] = fv.quadrature_point(k)[0];
          g[k] = grad[k][0][1]; // d u_x / d y
        }
    };

    WallZeros        z;
    std::vector<Face> faces;
    for (const auto &cell : dof_handler.active_cell_iterators())
      for (const unsigned int f : cell->face_indices())
        if (cell->face(f)->at_boundary() &&
            std::abs(cell->face(f)->center()[1] - y_wall) < 1e-10)
          {
            // 2D faces 2 and 3 are eta = 0 and eta = 1, xi along the face
            AssertThrow(f == 2 || f == 3, ExcInternalError());
            Face face{cell, f == 2 ? 0.0 : 1.0, {}, {}, {}};
            for (unsigned int k = 0; k < opt.samples; ++k)
              face.t.push_back(double(k) / (opt.samples - 1));
            evaluate(cell, face.eta, face.t, face.x, face.g);
            if (face.x.back() < face.x.front()) // keep every face ascending in x
              {
                std::reverse(face.t.begin(), face.t.end());
                std::reverse(face.x.begin(), face.x.end());
                std::reverse(face.g.begin(), face.g.end());
              }
            faces.push_back(std::move(face));
          }
    std::sort(faces.begin(), faces.end(), [](const Face &a, const Face &b) {
      return a.x.front() < b.x.front();
    });
    z.faces = faces.size();

    // the last sample with du/dy != 0: its face and index
    int          pf = -1;
    unsigned int pk = 0;
    for (unsigned int fi = 0; fi < faces.size(); ++fi)
      for (unsigned int k = 0; k < faces[fi].g.size(); ++k)
        {
          const double gk = faces[fi].g[k];
          if (gk == 0.0)
            continue;
          if (pf >= 0 && (faces[pf].g[pk] > 0.0) != (gk > 0.0))
            {
              double x0;
              if (pf == int(fi))
                {
                  // bisection on the face: g(ta) and g(tb) of opposite signs
                  const Face &     face = faces[fi];
                  double           ta = face.t[pk], tb = face.t[k];
                  const double     ga = face.g[pk];
                  std::vector<double> tm(1), xm, gm;
                  for (unsigned int it = 0;
                       it < 100 && std::abs(tb - ta) > 1e-14;
                       ++it)
                    {
                      tm[0] = 0.5 * (ta + tb);
                      evaluate(face.cell, face.eta, tm, xm, gm);
                      if (gm[0] == 0.0)
                        ta = tb = tm[0];
                      else if ((gm[0] > 0.0) == (ga > 0.0))
                        ta = tm[0];
                      else
                        tb = tm[0];
                    }
                  tm[0] = 0.5 * (ta + tb);
                  evaluate(face.cell, face.eta, tm, xm, gm);
                  x0 = xm[0];
                }
              else // du/dy jumps across the vertex between two faces
                x0 = faces[fi].x.front();
              if (x0 < x_in + corner_skip || x0 > x_out - corner_skip)
                z.skipped.push_back(x0);
              else
                z.x.push_back(x0);
            }
          pf = fi;
          pk = k;
        }
    std::sort(z.x.begin(), z.x.end());
    std::sort(z.skipped.begin(), z.skipped.end());
    return z;
  }

  static double cpu_seconds()
  {
    timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
  }

  template <int dim>
  void StationaryNavierStokes<dim>::run()
  {
    using clock       = std::chrono::steady_clock;
    const auto   t0   = clock::now();
    const double cpu0 = cpu_seconds();

    make_grid();
    setup_dofs();
    initialize_system();

    const double target_Re = opt.Re;
    bool         ok        = false;
    {
      viscosity = 1.0 / target_Re;
      try
        {
          ok = newton_iteration(true);
        }
      catch (const SolverControl::NoConvergence &)
        {
          log("  FGMRES did not converge");
          ok = false;
        }
    }
    if (!ok)
      {
        // Continuation: Stokes start at Re_0 = Re / 2^m <= 150, then Re doubled
        // up to the target, each stage converged to the same tolerance.
        log("Newton from the Stokes start failed: continuation in Re");
        stats.continuation = true;
        std::vector<double> stages(1, target_Re);
        for (double r = target_Re; r > 150.0;)
          {
            r *= 0.5;
            stages.insert(stages.begin(), r);
          }
        bool first = true;
        ok         = true;
        for (const double r : stages)
          {
            viscosity = 1.0 / r;
            try
              {
                ok = newton_iteration(first);
              }
            catch (const SolverControl::NoConvergence &)
              {
                ok = false;
              }
            first = false;
            if (!ok)
              break;
          }
      }
    stats.converged = ok;

    const double wall = std::chrono::duration<double>(clock::now() - t0).count();
    const double cpu  = cpu_seconds() - cpu0;

    // Post-processing (not timed above): the wall-shear sign changes.
    const auto      t1    = clock::now();
    const WallZeros lower = wall_zeros(y_low);
    const WallZeros upper = wall_zeros(y_up);
    const double    post =
      std::chrono::duration<double>(clock::now() - t1).count();
    auto json_array = [](const std::vector<double> &v) {
      std::string a = "[";
      for (unsigned int i = 0; i < v.size(); ++i)
        {
          char b[40];
          std::snprintf(b, sizeof(b), "%s%.6f", i ? "," : "", v[i]);
          a += b;
        }
      return a + "]";
    };

    rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    const double rss_mb = ru.ru_maxrss / 1024.0; // ru_maxrss is in kB

    std::string path = "[";
    for (unsigned int i = 0; i < stats.stages.size(); ++i)
      {
        const auto &st = stats.stages[i];
        char        b[200];
        std::snprintf(b, sizeof(b),
                      "%s{\"re\":%g,\"start\":\"%s\",\"steps\":%u,"
                      "\"converged\":%s,\"res\":%.3e}",
                      i ? "," : "", st.re, st.from_stokes ? "stokes" : "previous",
                      st.steps, st.converged ? "true" : "false", st.res_final);
        path += b;
      }
    path += "]";

    std::printf(
      "{\"solver\":\"deal.II %d.%d.%d step-57-derived Q2/Q1 Newton+AL-FGMRES\","
      "\"problem\":\"backward-facing step (Gartling 1990)\","
      "\"re\":%g,\"level\":%u,\"mesh\":\"%ux%u\",\"al\":\"%s\",\"gamma\":%g,"
      "\"n_dofs\":%u,\"n_dofs_u\":%u,\"n_dofs_p\":%u,"
      "\"converged\":%s,\"newton_steps\":%u,\"stokes_solves\":%u,"
      "\"line_search_backtracks\":%u,\"fgmres_its\":%u,"
      "\"continuation\":%s,\"stages\":%s,"
      "\"res_norm\":\"absolute l2 of assembled residual\",\"tol\":%.1e,"
      "\"res_stokes_start\":%.3e,\"res_final\":%.3e,"
      "\"lower\":%s,\"upper\":%s,"
      "\"wall_samples_per_face\":%u,\"wall_faces\":[%u,%u],"
      "\"skipped_near_ends\":{\"lower\":%s,\"upper\":%s},"
      "\"wall_s\":%.3f,\"cpu_s\":%.3f,\"assemble_s\":%.3f,"
      "\"umfpack_factor_s\":%.3f,\"fgmres_s\":%.3f,\"post_s\":%.3f,"
      "\"peak_rss_mb\":%.1f,\"threads\":%u}\n",
      DEAL_II_VERSION_MAJOR, DEAL_II_VERSION_MINOR, DEAL_II_VERSION_SUBMINOR,
      opt.Re, opt.level, coarse_nx << opt.level, coarse_ny << opt.level,
      opt.discrete_al ? "discrete B^T diag(Mp)^-1 B" : "grad-div (step-57)",
      gamma, (unsigned)dof_handler.n_dofs(),
      (unsigned)dofs_per_block[0], (unsigned)dofs_per_block[1],
      stats.converged ? "true" : "false", stats.newton_steps,
      stats.stokes_solves, stats.backtracks, stats.fgmres_its,
      stats.continuation ? "true" : "false", path.c_str(), opt.tol,
      stats.res_initial, stats.res_final, json_array(lower.x).c_str(),
      json_array(upper.x).c_str(), opt.samples, lower.faces, upper.faces,
      json_array(lower.skipped).c_str(), json_array(upper.skipped).c_str(), wall, cpu, stats.t_assemble,
      stats.t_factorize, stats.t_krylov, post, rss_mb,
      MultithreadInfo::n_threads());
    std::fflush(stdout);
  }
} // namespace Step

static void usage()
{
  std::cerr << "usage: step RE LEVEL [--tol T] [--samples N] "
               "[--gamma G] [--al graddiv|discrete] [--quiet]\n"
               "  stationary flow over Gartling's backward-facing step, "
               "[0,30] x [-0.5,0.5],\n"
               "  mesh (60 x 2) 2^LEVEL, one JSON line on stdout\n";
}

int main(int argc, char **argv)
{
  using namespace dealii;
  MultithreadInfo::set_thread_limit(1);
  deallog.depth_console(0);

  Step::Options opt;
  std::vector<std::string> pos;
  for (int i = 1; i < argc; ++i)
    {
      const std::string a = argv[i];
      if (a == "--quiet")
        opt.quiet = true;
      else if (a == "--tol" && i + 1 < argc)
        opt.tol = std::atof(argv[++i]);
      else if (a == "--al" && i + 1 < argc)
        {
          const std::string m = argv[++i];
          if (m != "graddiv" && m != "discrete")
            {
              usage();
              return 2;
            }
          opt.discrete_al = (m == "discrete");
        }
      else if (a == "--gamma" && i + 1 < argc)
        opt.gamma = std::atof(argv[++i]);
      else if (a == "--samples" && i + 1 < argc)
        opt.samples = std::atoi(argv[++i]);
      else if (a == "-h" || a == "--help")
        {
          usage();
          return 0;
        }
      else
        pos.push_back(a);
    }
  if (pos.size() != 2)
    {
      usage();
      return 2;
    }
  opt.Re    = std::atof(pos[0].c_str());
  opt.level = std::atoi(pos[1].c_str());
  if (!(opt.Re > 0) || opt.level > 12 || opt.samples < 2)
    {
      usage();
      return 2;
    }

  try
    {
      Step::StationaryNavierStokes<2> flow(opt);
      flow.run();
    }
  catch (std::exception &exc)
    {
      std::cerr << "Exception: " << exc.what() << std::endl;
      return 1;
    }
  return 0;
}
